#include "worker/remote_candidate.hpp"
#include "core/rules.hpp"

#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "metrics/statistics.hpp"
#include "worker/failure.hpp"
#include "worker/input_layouts.hpp"
#include "worker/phase_trace.hpp"

#if KFORGE_WITH_CUDA
#include <c10/cuda/CUDAStream.h>
#endif

namespace kforge::worker {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Pairs of a timed reference call and an empty timed request, before the candidate exists: the
// requests' median cost is what kforge's clock around a timed call holds beyond the call.
constexpr int kCalibrationPairs = 24;
// A slow reference stops it sooner: where one call takes milliseconds, the slack is 10% of it and
// the request's cost matters little.
constexpr int kFewestCalibrationPairs = 5;
// (150 ms took 15 of a level-1 sweep's 136 s on the H200, issue 18's phase trace, and 80 ms took
// 10 of 108 s. A low figure costs an honest candidate nothing now: where the bound would replace
// its times, the spare process is calibrated again first (evaluate.cpp, recalibrated_overhead).)
constexpr auto kCalibrationBudget = std::chrono::milliseconds(40);
// [ms] A probe this much slower than an idle one means the GPU was still running the candidate's work.
constexpr double kBusyProbeMs = 0.03;
// [ms] Work left running this long after a call is not a kernel finishing late but one left to
// run beside the reference.
constexpr double kDrainLimitMs = 100;
// [ms] An empty kernel's round trip that says another process has work on the GPU, where no
// work of kforge's or the candidate's can be running (before any candidate code has run; after
// the timing, the candidate stopped and drained). Idle, the H200 answers in 0.014 ms (0.03-0.06
// with the switch back from the candidate's process's context); beside another context's kernel
// every probe waits for its time slice, 2.38 ms there (bench/gpu_drain_probe.py,
// docs/benchmarks.md session 26).
constexpr double kSharedGpuProbeMs = 0.3;
// Probes of check_gpu_alone: a median of a few, each about 0.02 ms on an idle H200.
constexpr int kAloneProbes = 8;
// How long a killed candidate's GPU work may take to end with its context (the driver tears it
// down when the process dies), and how many idle probes in a row say it has.
constexpr auto kContextTeardown = std::chrono::milliseconds(3000);
constexpr int kIdleProbesAfterTeardown = 3;
// [ms] The least a timed call is taken to last: a ratio of times needs both above zero.
constexpr double kLeastMs = 1e-6;
// The longest message a candidate's process may have stored: its text is the candidate's.
constexpr size_t kMessageLimit = 4000;

// The arena space the tensors among `inputs` take, each aligned as TensorSlot offsets are.
int64_t arena_input_bytes(const py::list& inputs) {
  int64_t bytes = 0;
  for (auto a : inputs)
    if (THPVariable_Check(a.ptr())) bytes += aligned(THPVariable_Unpack(a.ptr()).nbytes());
  return bytes;
}

// What the candidate's process said, made safe to store and print: bounded, one line of
// printable text (a message is the candidate's channel out; escape codes and newlines are not).
std::string bounded_text(const json& j, const char* key) {
  std::string raw = j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
  std::string out;
  for (char c : raw) {
    if (out.size() >= kMessageLimit) {
      out += " [...]";
      break;
    }
    out += (static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f ? '?' : c;
  }
  return out;
}

// The rule a candidate's process names for its own rejection: one of the registry's, or (made up
// by candidate code) a forged result.
std::string checked_rule(const json& reply) {
  std::string rule = bounded_text(reply, "rule");
  return rules::known(rule) ? rule : std::string(rules::kForgedResult);
}

// KFORGE_WORKER_TIMING_TRACE=1: every calibration request and timed call's parts in the worker
// log, to see why the bound replaced an honest candidate's times (docs/evaluation.md, "The
// candidate's side"; bench/timing_trace.sh reads them).
bool trace_timing() {
  static const bool trace = std::getenv("KFORGE_WORKER_TIMING_TRACE") != nullptr;
  return trace;
}

double finite_or(const json& j, const char* key, double fallback) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return fallback;
  double v = j[key].get<double>();
  return std::isfinite(v) && v >= 0 ? v : fallback;
}

}  // namespace

RemoteCandidate::RemoteCandidate(std::unique_ptr<CandidateProcess> process, bool cuda, const GpuClockMonitor* clock)
    : process_(std::move(process)), cuda_(cuda), clock_(clock && clock->available() ? clock : nullptr) {}

double RemoteCandidate::probe_ms() {
#if KFORGE_WITH_CUDA
  auto t0 = Clock::now();
  probe_.add_(1);
  c10::cuda::getCurrentCUDAStream().synchronize();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
#else
  return 0;
#endif
}

void RemoteCandidate::calibrate(const py::list& inputs, const std::function<int64_t()>& reference_call,
                                const CalibrationOptions& options) {
  if (cuda_) probe_ = at::zeros({1}, at::TensorOptions().device(at::kCUDA));
  // Each request as a timed call makes it, in the timing's order (pairs ABBA: after a timed
  // reference call half the time, after the previous request the other half; paired_timing.cpp),
  // so the idle gaps the candidate's process wakes from, the GPU's switch from this process's
  // context to the candidate's, and the flush after reference work are in the figure; and each
  // request followed by the probe, whose switch back is in the probe's idle time. (On the H200,
  // leaving the switches out put honest candidates 0.2-0.4 ms per call above the request's cost
  // and their probes 20-40 us above the idle one; an untimed reference call every other request
  // still left 0.07-0.23 ms, docs/benchmarks.md session 15.)
  std::vector<double> overhead, probes;
  int64_t output_bytes = 0;
  auto request_empty_call = [&](int i) {
    // The arena as a call's: its inputs, then the space its outputs are copied into (the first
    // request comes after a reference call, so the outputs' size is known and it is made once).
    ensure_arena(arena_input_bytes(inputs) + aligned(output_bytes) + kSlotAlignment);
    py::list views;
    int64_t end = 0;
    json args = place_inputs(inputs, 0, views, &end);
    double outer = 0;
    json timed;
    json message = {{"type", "calibrate"},
                    {"args", args},
                    {"seed", static_cast<uint64_t>(i)},
                    {"graph", options.graph},
                    {"output_bytes", output_bytes},
                    {"out", {{"offset", end}, {"capacity", aligned(output_bytes)}}}};
    if (options.cpu) message["cpu"] = *options.cpu;
    request(message, &outer, -1, &timed);
    const json sample = timed.value("sample", json());
    overhead.push_back(outer - finite_or(sample, "host_ms", 0));
    if (trace_timing())
      std::fprintf(stderr, "kforge worker: timing trace: calibration: request %.3f ms, inside %.3f, host %.3f\n", outer,
                   finite_or(sample, "inside_ms", 0), finite_or(sample, "host_ms", 0));
    if (cuda_) probes.push_back(probe_ms());
  };
  if (options.adopted_idle_probe_ms) {
    output_bytes = reference_call();
    request_empty_call(0);
    request_overhead_ms_ = overhead.front();
    idle_probe_ms_ = *options.adopted_idle_probe_ms;
    return;
  }
  const auto measure = [&] {
    overhead.clear();
    probes.clear();
    const auto started = Clock::now();
    for (int pair = 0; pair < kCalibrationPairs; ++pair) {
      if (pair >= kFewestCalibrationPairs &&
          (options.fixed_pairs || options.fewest_pairs || Clock::now() - started > kCalibrationBudget))
        break;
      if (pair % 2 == 0) {
        output_bytes = reference_call();
        request_empty_call(pair);
      } else {
        request_empty_call(pair);
        output_bytes = reference_call();
      }
    }
    request_overhead_ms_ = stats::median(overhead);
    idle_probe_ms_ = probes.empty() ? 0 : stats::median(probes);
  };
  measure();
  // No candidate code has run in this process yet, so a GPU this slow to answer is another
  // process's: every figure taken beside it would carry its time slices, and the drain check,
  // measured against this idle time, could no longer see a candidate's work left running. Work
  // that is ending (an earlier job's candidate process, its context being torn down) is waited
  // for as the drain check waits for a killed candidate's, then everything is measured again.
  // (Not for a rank of a multi-rank job: measuring again runs reference calls, collectives, on this
  // rank alone. Its slow GPU ends its evaluation below, and the ranks' agreement ends the others'.)
  if (!options.fixed_pairs && idle_probe_ms_ > kSharedGpuProbeMs && gpu_goes_idle(kSharedGpuProbeMs)) measure();
  if (idle_probe_ms_ > kSharedGpuProbeMs) throw_shared_gpu("before the candidate was loaded", idle_probe_ms_);
}

void RemoteCandidate::check_gpu_alone(const std::string& when) {
  if (!cuda_) return;
  // The candidate's process is stopped and every call's work was drained after it: the GPU is
  // idle unless another process has work there, which would have been time-sliced with the
  // timed calls (found on the H200 charged to the candidate as work it left running).
  std::vector<double> probes;
  for (int i = 0; i < kAloneProbes; ++i) probes.push_back(probe_ms());
  const double median = stats::median(probes);
  if (median > kSharedGpuProbeMs && !gpu_goes_idle(kSharedGpuProbeMs)) throw_shared_gpu(when, median);
}

void RemoteCandidate::throw_shared_gpu(const std::string& when, double probe) {
  char text[256];
  std::snprintf(text, sizeof text,
                "the GPU took %.2f ms to run an empty kernel %s (idle, under %.2f): another process is using this GPU ",
                probe, when.c_str(), kSharedGpuProbeMs);
  throw Failure{Verdict::runtime_error,
                std::string(text) + "(kforge's timings need it alone; nvidia-smi lists what runs there)", "", true};
}

bool RemoteCandidate::gpu_goes_idle(double idle_ms) {
  const auto deadline = Clock::now() + kContextTeardown;
  for (int idle = 0; Clock::now() < deadline;) {
    idle = probe_ms() <= idle_ms ? idle + 1 : 0;
    if (idle == kIdleProbesAfterTeardown) return true;
  }
  return false;
}

json RemoteCandidate::place_inputs(const py::list& inputs, int64_t start, py::list& views, int64_t* end) {
  json args = json::array();
  int64_t cursor = start;
  for (auto a : inputs) {
    if (THPVariable_Check(a.ptr())) {
      at::Tensor t = THPVariable_Unpack(a.ptr());
      TensorSlot slot{cursor, t.scalar_type(), t.sizes().vec()};
      at::Tensor view = arena_->view(slot);
      view.copy_(t);
      views.append(py::cast(view));
      args.push_back({{"tensor", slot.to_json()}});
      cursor += aligned(slot.nbytes());
    } else {
      // get_inputs() gave a plain number (checked_inputs allows nothing else).
      json value = a.is_none() ? json() : py::isinstance<py::bool_>(a) ? json(a.cast<bool>())
                                        : py::isinstance<py::int_>(a) ? json(a.cast<int64_t>())
                                                                      : json(a.cast<double>());
      views.append(a);
      args.push_back({{"value", value}});
    }
  }
  synchronize_device(cuda_);  // the inputs are in place before the candidate's process runs
  *end = cursor;
  return args;
}

// The load request both load() and load_reference() send: what the candidate's process needs to
// build the problem's inputs and its model.
static json load_request(const protocol::EvalJob& job, CandidateFormat format, const json& training, const json& rank) {
  json request = {{"type", "load"},
                  {"problem", job.problem_path},
                  {"format", to_string(format)},
                  {"precision", to_string(job.precision)},
                  {"fallback", census::to_string(job.fallback)},
                  {"scratch_bytes", job.scratch_bytes}};
  if (!training.is_null()) request["training"] = training;
  if (!rank.is_null()) request["rank"] = rank;
  return request;
}

void RemoteCandidate::load(const protocol::EvalJob& job, const std::vector<at::Tensor>& reference_outputs,
                           const json& training, const json& rank) {
  json outputs = json::array();
  for (const auto& t : reference_outputs) outputs.push_back(TensorSlot{0, t.scalar_type(), t.sizes().vec()}.to_json());
  json message = load_request(job, job.candidate_format, training, rank);
  message["candidate"] = job.candidate_path;
  message["library"] = job.candidate_library;
  message["outputs"] = outputs;
  json reply = request(message);
  if (reply.value("type", "") == "loaded") return;
  auto verdict = verdict_from_string(reply.value("verdict", std::string()));
  // Only what a load can fail with; anything else the process says is taken as a load error.
  Verdict v = verdict && (*verdict == Verdict::compile_error || *verdict == Verdict::rejected) ? *verdict : Verdict::load_error;
  throw Failure{v, bounded_text(reply, "message"), v == Verdict::rejected ? checked_rule(reply) : ""};
}

void RemoteCandidate::load_reference(const protocol::EvalJob& job, const json& training, const std::string& folder) {
  json message = load_request(job, CandidateFormat::kernelbench, training, nullptr);
  message["reference"] = true;
  message["reference_folder"] = folder;
  json reply = request(message);
  if (reply.value("type", "") == "loaded") return;
  throw Failure{Verdict::runtime_error,
                "the reference's timing process could not build the problem's Model: " + bounded_text(reply, "message"), ""};
}

void RemoteCandidate::begin_unload_reference() { process_->send_request({{"type", "unload"}}); }

void RemoteCandidate::finish_unload_reference() {
  json reply = process_->answer();
  if (reply.value("type", "") != "ok")
    throw Failure{Verdict::runtime_error, "the reference's timing process could not unload its problem: " + bounded_text(reply, "message"), ""};
  arena_.reset();  // the process unmapped it; the next problem's is sized for its own inputs
}

json RemoteCandidate::request(const json& message, double* outer_ms, int fd, json* timed) {
  if (!release_gil_ || !PyGILState_Check()) return process_->request(message, outer_ms, fd, timed);
  py::gil_scoped_release unlocked;
  return process_->request(message, outer_ms, fd, timed);
}

void RemoteCandidate::ensure_arena(int64_t bytes) {
  if (arena_ && arena_->bytes() >= bytes) return;
  // A quarter more than asked: the extra-size trials and the timing batches grow it little by little.
  auto arena = ExchangeArena::create(bytes + bytes / 4, cuda_);
  json reply = request({{"type", "arena"}, {"arena", arena->description()}}, nullptr, arena->fd());
  if (reply.value("type", "") != "ok")
    throw Failure{Verdict::runtime_error, "the candidate's process could not map the exchange arena: " + bounded_text(reply, "message"), ""};
  arena_ = std::move(arena);
}

double RemoteCandidate::drain_gpu(const std::string& what) {
  if (!cuda_) return 0;
  // The candidate's process is stopped: it can queue nothing more. Work it queued and left
  // running shares the GPU with this context by time slices, so a probe here waits for it.
  double busy = 0;
  for (;;) {
    double p = probe_ms();
    if (p <= idle_probe_ms_ + kBusyProbeMs) return busy;
    busy += p - idle_probe_ms_ - kBusyProbeMs;  // what the probe's own jitter cannot explain
    if (busy > kDrainLimitMs) {
      char text[160];
      std::snprintf(text, sizeof text, "%s: the GPU was still busy %.0f ms after the candidate's call returned", what.c_str(), busy);
      if (busy_after_candidate_ends())
        throw Failure{Verdict::runtime_error,
                      std::string(text) + ", and still once its process had ended: another process is using this GPU "
                                          "(kforge's timings need it alone; nvidia-smi lists what runs there)",
                      "", true};
      throw Failure{Verdict::rejected,
                    std::string(text) + ": work left running beside the reference would be timed as the reference's",
                    std::string(rules::kUndrainedWork)};
    }
  }
}

bool RemoteCandidate::busy_after_candidate_ends() {
  // Whose work is it? A process's GPU work ends with its context, which the driver tears down
  // when the process dies: work still running after that is another process's (a job left
  // behind by an earlier kforge, a second user). Seen on the H200: an orphaned baseline tool's
  // got every candidate after it rejected. The candidate's verdict ends here either way.
  process_->end(std::chrono::milliseconds(2000));
  return !gpu_goes_idle(idle_probe_ms_ + kBusyProbeMs);
}

// The candidate process's own account of a call's parts (trace only: it could forge them), the
// process's first call apart from the rest (its kernels and libraries load then).
void RemoteCandidate::trace_inside(const json& reply) {
  const bool first = calls_++ == 0;
  if (!PhaseTrace::wanted() || !reply.contains("inside") || !reply["inside"].is_object()) return;
  for (const char* name : {"arguments", "settle", "forward", "checks", "outputs"}) {
    const json& ms = reply["inside"].value(name, json());
    if (ms.is_number()) PhaseTrace::current().add(std::string(first ? "inside first " : "inside ") + name, ms.get<double>());
  }
}

// The outputs a frame of the candidate's process describes, checked against the space given for
// them and copied out of the arena (or what options.keep takes of them).
void RemoteCandidate::read_outputs(const json& frame, int64_t out_offset, int64_t output_capacity, const CallOptions& options,
                                   RemoteCall& out) {
  if (frame.contains("output_error")) {
    const json& e = frame["output_error"];
    bool subclass = e.is_object() && e.value("subclass", false);
    throw Failure{subclass ? Verdict::rejected : Verdict::incorrect, options.what + ": " + bounded_text(e, "message"),
                  subclass ? std::string(rules::kTensorSubclass) : ""};
  }
  if (!frame.contains("outputs") || !frame["outputs"].is_array() || frame["outputs"].empty() ||
      frame["outputs"].size() > 64)
    throw Failure{Verdict::rejected, options.what + ": the candidate's process described no outputs kforge can read",
                  std::string(rules::kForgedResult)};
  const std::string expected_device = cuda_ ? "cuda" : "cpu";
  size_t index = 0;
  for (const auto& o : frame["outputs"]) {
    std::string why;
    auto slot = TensorSlot::from_json(o, &why);
    std::string name = "output " + std::to_string(index++);
    if (!slot) throw Failure{Verdict::rejected, options.what + ": " + name + ": " + why, std::string(rules::kForgedResult)};
    if (o.value("device", std::string()) != expected_device)
      throw Failure{Verdict::incorrect, options.what + ": " + name + " is on " + bounded_text(o, "device") + ", not " + expected_device, ""};
    out.output_shapes.push_back(slot->shape);
    if (!o.value("fits", true)) {
      // Larger than the reference's outputs, so its shape or dtype differs from theirs: a tensor
      // without storage says which, in the comparison's words.
      out.outputs.tensors.push_back(at::empty(slot->shape, at::TensorOptions().dtype(slot->dtype).device(at::kMeta)));
      continue;
    }
    if (slot->offset < out_offset || slot->offset + slot->nbytes() > out_offset + output_capacity ||
        !arena_->contains(*slot, &why))
      throw Failure{Verdict::rejected, options.what + ": " + name + " lies outside the space given for outputs", std::string(rules::kForgedResult)};
    // The candidate's process is stopped: nothing changes the arena while this reads it.
    at::Tensor view = arena_->view(*slot);
    out.outputs.tensors.push_back(options.keep ? options.keep(view) : view.clone());
  }
  synchronize_device(cuda_);
}

RemoteCall RemoteCandidate::call(const py::list& inputs, const CallOptions& options) {
  // Layout: the tensor inputs from the call's layout's start (worker/input_layouts.hpp), then the
  // space for the outputs; the arena holds every layout, so it grows at most once in a timing.
  const int64_t input_bytes = arena_input_bytes(inputs);
  const int64_t output_capacity = aligned(options.output_bytes) + 16 * kSlotAlignment;
  ensure_arena(layouts_span(input_bytes, options.input_layouts) + output_capacity);

  RemoteCall out;
  int64_t cursor = 0;
  std::optional<TracedPart> part(std::in_place, "call place inputs");
  const int64_t inputs_start = layout_start(input_bytes, options.input_layouts, options.pair);
  json args = place_inputs(inputs, inputs_start, out.inputs_after, &cursor);
  if (trace_timing() && options.pair >= 0)
    std::fprintf(stderr, "kforge worker: timing trace: timed pair %d: inputs at arena offset %lld of %lld bytes\n",
                 options.pair + 1, static_cast<long long>(inputs_start), static_cast<long long>(arena_->bytes()));
  const int64_t out_offset = cursor;
  json message = {{"type", "call"},
                  {"what", options.what},
                  {"args", args},
                  {"out", {{"offset", out_offset}, {"capacity", output_capacity}}},
                  {"poison", options.poison},
                  {"record", options.record}};
  if (options.timed_hold) {
    message["time"] = {{"hold", *options.timed_hold}, {"graph", options.graph}, {"checks", options.checks}};
    if (options.cpu) message["time"]["cpu"] = *options.cpu;
  }
  if (options.forward_seed) message["seed"] = *options.forward_seed;
  if (options.settle_allocator > 0) message["settle"] = options.settle_allocator;

  double outer_ms = 0;
  json timed;
  double drained = 0;
  bool outputs_read = false;
  // A timed call's outputs are read where its clock stops: at its timed frame, its process
  // stopped and its GPU work drained, so nothing it runs after the frame can still make them.
  const auto read_timed_outputs = [&](const json& frame) {
    part.emplace("call drain");
    drained += drain_gpu(options.what);
    part.emplace("call outputs");
    read_outputs(frame, out_offset, output_capacity, options, out);
    outputs_read = true;
    part.emplace("call request");
  };
  part.emplace("call request");
  json reply = options.timed_hold ? process_->request(message, &outer_ms, -1, &timed, read_timed_outputs)
                                  : request(message, &outer_ms);
  // Stopped now. Whatever the candidate left on the GPU runs before anything else is timed.
  part.emplace("call drain");
  if (options.drain || options.timed_hold) drained += drain_gpu(options.what);
  part.emplace("call outputs");
  trace_inside(reply);

  if (reply.value("type", "") == "failed") {
    auto verdict = verdict_from_string(reply.value("verdict", std::string()));
    Verdict v = verdict && (*verdict == Verdict::rejected || *verdict == Verdict::runtime_error) ? *verdict : Verdict::runtime_error;
    throw Failure{v, bounded_text(reply, "message"), v == Verdict::rejected ? checked_rule(reply) : ""};
  }
  if (options.timed_hold && !outputs_read)
    throw Failure{Verdict::rejected, options.what + ": the candidate's process answered a timed call without its timed frame",
                  std::string(rules::kForgedResult)};
  if (!outputs_read) read_outputs(reply, out_offset, output_capacity, options, out);
  out.kernels = bounded_text(reply, "kernels");

  if (options.timed_hold) out.sample = timed_sample(timed.value("sample", json()), *options.timed_hold, outer_ms, drained, options.what);
  return out;
}

// A timed call's sample: the times the candidate's process reported (`s`, its timed frame's),
// bounded by kforge's clock around the request (`outer_ms`) and charged the GPU time drained after it.
Sample RemoteCandidate::timed_sample(const json& s, bool hold, double outer_ms, double drained, const std::string& what) {
  Sample sample;
  // The candidate's own figures, which it could have forged: none beyond kforge's clock around
  // the request; GPU work found running after the call is added to them. Whether they are
  // believed at all is decided over every call (stats::choose_bound).
  // Held, a call is queued first (`queued_ms`) and runs on the GPU only after the release, which
  // the host time starts at: the bound leaves the queueing out. A process that claims a longer
  // queueing to lower the bound raises its own event time with it (held, the event time is at
  // least the time spent queueing).
  const bool held = hold && !(s.is_object() && s.value("watchdog", false));
  const double queued = finite_or(s, "queued_ms", 0);
  const double bound = std::max(0.0, outer_ms - request_overhead_ms_ - (held ? queued : 0.0)) + drained;
  drained_ms_ += drained;
  sample.bound_ms = std::max(bound, kLeastMs);
  sample.delivery_ms = std::max(0.0, outer_ms - (held ? queued : 0.0) - finite_or(s, "host_ms", outer_ms));
  // No call takes longer than the request around it (kforge's clock, with nothing subtracted:
  // the calibrated cost is a median and may exceed one request's), nor no time at all.
  sample.host_ms = std::clamp(finite_or(s, "host_ms", bound) + drained, kLeastMs, outer_ms + drained);
  sample.queued_ms = std::min(queued, sample.host_ms);
  sample.event_ms = std::clamp(std::max(finite_or(s, "event_ms", sample.host_ms), held ? queued : 0.0), kLeastMs,
                               sample.host_ms);
  sample.watchdog = s.is_object() && s.value("watchdog", false);
  sample.held = hold && !sample.watchdog;
  // The clock and slowdown reasons as this process reads them, never as the candidate reports them.
  if (clock_)
    if (auto reading = clock_->read()) {
      sample.sm_mhz = reading->sm_mhz;
      sample.throttled = reading->throttled;
    }
  // `inside` is the candidate process's own word (trace only): the request less it is delivery.
  if (trace_timing())
    std::fprintf(stderr,
                 "kforge worker: timing trace: %s: request %.3f ms, calibrated cost %.3f, queued %.3f, bound %.3f; "
                 "reported host %.3f, events %.3f; drained %.3f; inside %.3f\n",
                 what.c_str(), outer_ms, request_overhead_ms_, queued, sample.bound_ms, sample.host_ms,
                 sample.event_ms, drained, finite_or(s, "inside_ms", 0));
  return sample;
}

std::string RemoteCandidate::describe_timing() const {
  if (drained_ms_ <= 0) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.3f ms of GPU work ran after its calls returned (charged to it)", drained_ms_);
  return buf;
}

}  // namespace kforge::worker
