#include "worker/job_loop.hpp"

#include <pybind11/pybind11.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "protocol/frame.hpp"
#include "protocol/messages.hpp"
#include "worker/crash_report.hpp"
#include "worker/evaluate.hpp"
#include "worker/phase_trace.hpp"
#include "worker/python_bridge.hpp"
#include "worker/remote_candidate.hpp"  // WorkerContext keeps a reference twin
#include "worker/sandbox.hpp"
#include "worker/timer.hpp"

namespace kforge::worker {
namespace {

namespace py = pybind11;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// What each step of the worker's start costs, for its log (the eval wall-time benchmark reads it).
struct StartCosts {
  double cuda_s = 0, copy_rate_s = 0, nvml_s = 0, hold_s = 0, sandbox_s = 0;
};

protocol::WorkerInfo describe_worker(WorkerContext& context, StartCosts& costs) {
  protocol::WorkerInfo info;
  auto t0 = Clock::now();
  auto sys = py::module_::import("sys");
  auto platform = py::module_::import("platform");
  auto torch = py::module_::import("torch");
  info.python_version = py::str(sys.attr("version")).cast<std::string>().substr(0, 6);
  info.torch_version = py::str(torch.attr("__version__")).cast<std::string>();
  auto cuda = torch.attr("cuda");
  context.cuda = cuda.attr("is_available")().cast<bool>();
  if (context.cuda) {
    py::object props = cuda.attr("get_device_properties")(0);
    info.device_kind = "cuda";
    info.device_name = py::str(props.attr("name")).cast<std::string>();
    info.l2_bytes = props.attr("L2_cache_size").cast<int64_t>();
    info.sm_count = props.attr("multi_processor_count").cast<int>();
    info.compute_capability = std::to_string(props.attr("major").cast<int>()) + "." +
                              std::to_string(props.attr("minor").cast<int>());
    context.l2_bytes = info.l2_bytes;
    costs.cuda_s = seconds_since(t0);
    t0 = Clock::now();
    info.copy_bytes_per_s = measure_copy_rate();
    costs.copy_rate_s = seconds_since(t0);
    t0 = Clock::now();
    context.clock = std::make_shared<GpuClockMonitor>(cuda_pci_bus_id());
    // Without NVML the compute floor takes a clock no GPU has reached (3 GHz): looser, still sound.
    info.max_sm_mhz = context.clock->max_sm_mhz().value_or(3000);
    costs.nvml_s = seconds_since(t0);
    t0 = Clock::now();
    // 500 ms: longer than any honest forward takes to queue (level 3's largest take a few ms); a
    // forward that waits on the GPU pays it once, in a warm-up, and is then timed without the hold.
    context.hold = StreamHold::create(std::chrono::milliseconds(500), &context.why_not_held);
    costs.hold_s = seconds_since(t0);
  } else {
    info.device_kind = "cpu";
    std::string cpu = py::str(platform.attr("processor")()).cast<std::string>();
    info.device_name = cpu.empty() ? py::str(platform.attr("machine")()).cast<std::string>() : cpu;
  }
  return info;
}

// What the release after a job took, in its two parts (the job costs line says which dominates).
struct ReleaseCosts {
  double collect_s = 0, empty_cache_s = 0;
};

ReleaseCosts release_memory(bool cuda) {
  ReleaseCosts costs;
  auto t0 = Clock::now();
  py::module_::import("gc").attr("collect")();
  costs.collect_s = seconds_since(t0);
  t0 = Clock::now();
  if (cuda) py::module_::import("torch").attr("cuda").attr("empty_cache")();
  costs.empty_cache_s = seconds_since(t0);
  return costs;
}

// Whether `result` ended for want of memory (says_out_of_memory), in a job that a second evaluation without the
// spares could change: not a multi-rank job's (its ranks must stay in step), nor one the worker
// cannot go on from.
bool ran_out_of_memory(const protocol::EvalJob& job, const protocol::JobResult& result) {
  if (job.rank || result.verdict == Verdict::correct || result.worker_must_restart || result.not_the_candidates) return false;
  return says_out_of_memory(result.message);
}

// A job that ran out of memory while kforge's spare processes held theirs (each a CUDA context
// and its libraries' handles, 0.8 GiB on an H100, six of them) is kforge's doing, not the
// candidate's: on an H100's 80 GiB, level1/63's identity candidate (4.9 GiB of inputs) came
// runtime_error beside them, 2.4 GiB short (docs/benchmarks.md, session 54). It is evaluated once
// more with the spares ended and none started until it is over, and its message says so. A
// candidate that claims to be out of memory gains nothing by it but a second evaluation, judged
// as the first.
protocol::JobResult evaluate_again_without_spares(const protocol::EvalJob& job, WorkerContext& context,
                                                   const protocol::JobResult& first) {
  const size_t spares = end_spares(context);
  release_memory(context.cuda);  // what the first evaluation left in this process's cache too
  std::fprintf(stderr, "kforge worker: out of memory beside %zu spare processes (%s): evaluated again without them\n", spares,
               first.message.substr(0, 300).c_str());
  struct HeldBack {  // however the evaluation ends
    WorkerContext& context;
    explicit HeldBack(WorkerContext& c) : context(c) { context.spares_held_back = true; }
    ~HeldBack() { context.spares_held_back = false; }
  };
  protocol::JobResult again;
  {
    HeldBack held_back(context);
    again = evaluate(job, context);
  }
  again.message += std::string(again.message.empty() ? "" : "; ") + "evaluated again after it ran out of memory beside " +
                   std::to_string(spares) + " of kforge's spare processes, which were ended for it";
  return again;
}

}  // namespace

int serve(int in_fd, int out_fd, int zygote_fd) {
  install_native_crash_report();
  // No other process of this user may read this one's memory or trace it (/proc/<pid>/mem, ptrace):
  // the secret seeds and the reference's outputs live here.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  WorkerContext context;
  context.zygote = std::make_unique<Zygote>(zygote_fd);
  if (const char* scratch = std::getenv("KFORGE_WORKER_SCRATCH"); scratch && *scratch && ::chdir(scratch) != 0)
    std::perror("kforge worker: chdir to the scratch folder");
  StartCosts costs;
  protocol::WorkerInfo info = describe_worker(context, costs);  // the CUDA context exists from here
  // Before any candidate is imported; the CUDA driver has opened what it needs.
  auto t0 = Clock::now();
  // A multi-rank job's worker (pool/rank_job.hpp): its references' group meets through a file
  // in KFORGE_WORKER_RANK_FOLDER, which only kforge's workers may write (never its candidates).
  std::vector<std::string> writable = writable_folders();
  const char* rank_folder = std::getenv("KFORGE_WORKER_RANK_FOLDER");
  const bool rank_worker = rank_folder && *rank_folder;
  if (rank_worker) writable.emplace_back(rank_folder);
  SandboxStatus sandbox = enter_sandbox(writable, rank_worker);
  costs.sandbox_s = seconds_since(t0);
  std::fprintf(stderr, "kforge worker: sandbox: %s\n", sandbox.describe.c_str());
  std::fprintf(stderr,
               "kforge worker: start costs: torch.cuda init %.3f s, copy rate %.3f s, NVML %.3f s, stream hold %.3f s, "
               "sandbox %.3f s\n",
               costs.cuda_s, costs.copy_rate_s, costs.nvml_s, costs.hold_s, costs.sandbox_s);
  if (context.cuda)
    std::fprintf(stderr, "kforge worker: stream hold: %s\n",
                 context.hold ? "the stream is held while each timed forward is queued"
                              : ("not available: " + context.why_not_held).c_str());
  if (context.clock)
    std::fprintf(stderr, "kforge worker: SM clock: %s\n",
                 context.clock->available() ? "sampled through NVML after every timed call"
                                            : ("not sampled: " + context.clock->status()).c_str());
  // Everything made so far (torch and its modules, 160,000 objects and more) lives as long as the
  // worker: frozen out of the collector's reach, so release_memory's full collection after each job
  // looks only at what jobs made. Before, the release took 74-128 ms a job on the H200 (session 36),
  // a full collection over torch's objects taking 30 ms on the development machine alone.
  py::module_ gc = py::module_::import("gc");
  gc.attr("collect")();  // the start's garbage first, or it would be frozen too
  gc.attr("freeze")();
  start_spare(context);
  if (!protocol::write_frame(out_fd, {{"type", "hello"}, {"protocol", protocol::kVersion}, {"worker", info}})) return 1;
  for (;;) {
    auto frame = protocol::read_frame(in_fd);
    if (frame.status != protocol::ReadStatus::ok) return 0;  // kforge went away
    std::string type = frame.message.value("type", "");
    if (type == "shutdown") return 0;
    if (type != "eval") continue;
    protocol::JobResult result;
    const auto job_start = Clock::now();
    try {
      const auto job = frame.message.at("job").get<protocol::EvalJob>();
      result = evaluate(job, context);
      if (ran_out_of_memory(job, result) && !context.spares.empty()) result = evaluate_again_without_spares(job, context, result);
    } catch (const std::exception& e) {
      result.verdict = Verdict::runtime_error;
      result.message = std::string("worker: malformed job: ") + e.what();
    }
    const auto evaluated = Clock::now();
    // The result first, the release after: kforge stores it and sends the next job while this
    // process gives its memory back (an empty_cache of 50-60 ms a job on the H100), and the next
    // job is read only once that is done, so no job starts beside the release.
    const std::string nonce = frame.message.value("nonce", std::string());
    if (!protocol::write_frame(out_fd, {{"type", "result"}, {"nonce", nonce}, {"result", result}})) return 1;
    if (result.worker_must_restart) return 3;
    const auto released_from = Clock::now();
    const ReleaseCosts released = release_memory(context.cuda);
    // What a job costs beyond its phases (bench/boundary_cost.sh reads it beside the phase trace).
    if (PhaseTrace::wanted())
      std::fprintf(stderr, "kforge worker: job costs: evaluate %.3f s (phases %.3f s), release %.3f s (collect %.3f s, empty_cache %.3f s)\n",
                   std::chrono::duration<double>(evaluated - job_start).count(), result.load_s + result.correctness_s + result.timing_s,
                   seconds_since(released_from), released.collect_s, released.empty_cache_s);
    start_spare(context);
  }
}

}  // namespace kforge::worker
