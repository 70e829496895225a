#include "worker/reference_twin.hpp"

#include <ATen/ThreadLocalState.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <thread>

#include "common/environment_says.hpp"
#include "worker/file_text.hpp"
#include "worker/phase_trace.hpp"

#if KFORGE_WITH_CUDA
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#endif

namespace kforge::worker {

bool reference_twin_wanted(const protocol::EvalJob& job, bool multi_rank) {
  if (multi_rank || !job.time_candidate) return false;
  return !environment_says("KFORGE_WORKER_REFERENCE", "inline");
}

std::string reference_twin_key(const protocol::EvalJob& job, const nlohmann::json& training) {
  // No iostreams (worker/file_text.hpp says why).
  return job.problem_path + '\n' + std::string(to_string(job.precision)) + '\n' + (job.timing.cuda_graph ? "graph" : "eager") +
         '\n' + (training.is_null() ? std::string() : training.dump()) + '\n' + file_text(job.problem_path);
}

std::string twin_problem_folder(const std::string& problem_path) {
  const size_t slash = problem_path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : problem_path.substr(0, slash);
}

namespace {

// The first part of retire_twins: each of `twins` asked to let its problem go, all at once, so the
// processes free their memory side by side; no more than a job's twins are idle in `context` with
// them (the rest, and any whose request could not be sent, killed here: their teardown is the driver's).
std::vector<std::unique_ptr<RemoteCandidate>> begin_retiring(const WorkerContext& context,
                                                             std::vector<std::unique_ptr<RemoteCandidate>> twins) {
  static const bool across_problems = !environment_says("KFORGE_WORKER_TWINS_ACROSS_PROBLEMS", "off");
  const size_t room = reference_twin_count() - std::min(reference_twin_count(), context.idle_twins.size());
  std::vector<std::unique_ptr<RemoteCandidate>> asked;
  for (auto& twin : twins) {
    if (!across_problems || asked.size() >= room) break;
    try {
      twin->begin_unload_reference();
      asked.push_back(std::move(twin));
    } catch (const Failure& f) {
      std::fprintf(stderr, "kforge worker: a reference twin's process ended with its problem: %s\n", f.message.c_str());
    }
  }
  return asked;
}

// The second: each answer read, and the process left idle in `context`.
void finish_retiring(WorkerContext& context, std::vector<std::unique_ptr<RemoteCandidate>> asked) {
  for (auto& twin : asked) {
    try {
      twin->finish_unload_reference();
      context.idle_twins.push_back(twin->release_process());
    } catch (const Failure& f) {
      std::fprintf(stderr, "kforge worker: a reference twin's process ended with its problem: %s\n", f.message.c_str());
    }
  }
}

}  // namespace

void retire_twins(WorkerContext& context, std::vector<std::unique_ptr<RemoteCandidate>> twins) {
  finish_retiring(context, begin_retiring(context, std::move(twins)));
}

size_t reference_twin_count() {
  static const size_t count = static_cast<size_t>(environment_integer("KFORGE_WORKER_TWINS", 1, 2).value_or(2));
  return count;
}

size_t twin_for_pair(int pair, size_t twins) {
  if (twins < 2 || pair < 0) return 0;
  return static_cast<size_t>(pair / 2) % twins;
}

namespace {

// Whether the twins a job starts start side by side, each on a thread of its own (the default),
// or one after the other (KFORGE_WORKER_TWIN_START=one-by-one: a benchmark's comparison).
bool twins_start_side_by_side() {
  static const bool one_by_one = environment_says("KFORGE_WORKER_TWIN_START", "one-by-one");
  return !one_by_one;
}

// A new twin in `process` (a spare or an idle twin's, ready). Failures are the reference's (reference_failure).
// `beside_another`: another twin starts on another thread meanwhile (start_side_by_side).
std::unique_ptr<RemoteCandidate> start_reference_twin(std::unique_ptr<CandidateProcess> process, TwinStart&& start, bool cuda,
                                                      const WorkerContext& context, bool beside_another) {
  return reference_failure([&] {
    auto twin = std::make_unique<RemoteCandidate>(std::move(process), cuda, context.clock.get());
    twin->release_gil_while_waiting(beside_another);
    // The request the candidate's process got before its load (the arena, the outputs' copy: the
    // same state), without reference calls around it: the twin's request cost bounds nothing, and
    // the idle probe its drain checks need is the candidate's, measured just before from a process
    // of the same kind in the same state. (Five requests of its own measured it until session 39:
    // 40 ms a job on the H100, each request copying the inputs into the arena again.
    // KFORGE_WORKER_TWIN_CALIBRATION=own brings them back, for a benchmark's comparison.)
    RemoteCandidate::CalibrationOptions calibration{start.cpu, start.job.timing.cuda_graph};
    calibration.fewest_pairs = true;
    static const bool own_probe = environment_says("KFORGE_WORKER_TWIN_CALIBRATION", "own");
    if (!own_probe) calibration.adopted_idle_probe_ms = start.idle_probe_ms;
    std::optional<TracedPart> part(std::in_place, "twin calibrate");
    // Its inputs are let go once it is done: the first call below chooses plans from the free
    // memory it sees.
    twin->calibrate(py::list(std::move(start.calibration_inputs)), [&] { return start.output_bytes; }, calibration);
    part.emplace("twin load");
    // The folder ReferenceTwins::start checked the idle twins against (their sandbox reads it).
    twin->load_reference(start.job, start.training, context.twin_folder);
    // The candidate's first trial again, as its process will make it: the first forward, which
    // chooses the libraries' plans, from the same settled allocator and poisoned memory.
    RemoteCandidate::CallOptions options;
    options.what = "the reference twin's first call";
    options.output_bytes = start.output_bytes;
    options.poison = true;
    options.forward_seed = start.first_forward_seed;
    options.settle_allocator = start.settle_bytes;
    options.drain = !beside_another;
    part.emplace("twin first inputs");
    py::list inputs = start.first_inputs();
    part.emplace("twin first call");
    twin->call(inputs, options);
    twin->release_gil_while_waiting(false);  // its later requests are the timing's, on one thread
    return twin;
  });
}

// An idle twin process (another problem's, let go: ReferenceTwins::start has checked its folder),
// else a spare (or a new process); its failure is the reference's.
std::unique_ptr<CandidateProcess> take_twin_process(WorkerContext& context) {
  return reference_failure([&] {
    TracedPart part("twin take process");
    if (!context.idle_twins.empty()) {
      auto process = std::move(context.idle_twins.back());
      context.idle_twins.pop_back();
      PhaseTrace::current().add("twin process reused", 0);
      return process;
    }
    return take_candidate_process(context);
  });
}

// A twin's failure is thrown where no other twin started (`first`) or where it is not the
// candidate's doing (the GPU another process's); else it leaves the twins that started, and
// `note` says why. False once one failed.
bool keep_or_throw(const Failure& f, bool first, std::string& note) {
  if (first || f.not_the_candidates) throw f;
  note = "the reference timed in one process (a second did not start: " + f.message + ")";
  std::fprintf(stderr, "kforge worker: %s\n", note.c_str());
  return false;
}

}  // namespace

void ReferenceTwins::start_one_by_one(WorkerContext& context, const std::function<TwinStart(size_t)>& start_for, bool cuda) {
  for (size_t i = twins_.size(); i < reference_twin_count(); ++i) {
    try {
      auto process = take_twin_process(context);  // before start_for(i) makes its inputs, as ever
      twins_.push_back(start_reference_twin(std::move(process), start_for(i), cuda, context, false));
    } catch (const Failure& f) {
      if (!keep_or_throw(f, twins_.empty(), note_)) break;
    }
  }
}

void ReferenceTwins::start_side_by_side(WorkerContext& context, const std::function<TwinStart(size_t)>& start_for, bool cuda) {
  // What needs this thread first: each twin's inputs, its first call's too (torch's generators
  // are the process's: one thread's seeding would be another's draw), and its process (the spares
  // are this thread's). Each first call's inputs are then held from here, not made just before it.
  std::vector<TwinStart> starts;
  std::vector<std::unique_ptr<CandidateProcess>> processes;
  for (size_t i = twins_.size(); i < reference_twin_count(); ++i) {
    try {
      processes.push_back(take_twin_process(context));
    } catch (const Failure& f) {
      if (!keep_or_throw(f, processes.empty() && twins_.empty(), note_)) break;
    }
    starts.push_back(start_for(i));
    TracedPart part("twin inputs ahead");
    py::list first = starts.back().first_inputs();
    starts.back().first_inputs = [first] { return first; };
  }
  const size_t n = processes.size();
  std::vector<std::unique_ptr<RemoteCandidate>> started(n);
  std::vector<std::optional<Failure>> failed(n);
  const auto start_twin = [&](size_t k) {
    try {
      started[k] = start_reference_twin(std::move(processes[k]), std::move(starts[k]), cuda, context, n > 1);
    } catch (const Failure& f) {
      failed[k] = f;
    } catch (const std::exception& e) {
      failed[k] = Failure{Verdict::runtime_error, std::string("the reference's timing process: ") + e.what(), ""};
    }
  };
  // Every twin but the first on a thread of its own, with this thread's ATen state (grad mode and
  // the like) and device; the interpreter's lock taken in turns (each request lets it go while it
  // waits), so the processes' own work, their model's build and first forward, overlaps.
  const at::ThreadLocalState state;
#if KFORGE_WITH_CUDA
  const c10::DeviceIndex device = cuda ? c10::cuda::current_device() : 0;
#endif
  std::vector<std::thread> threads;
  for (size_t k = 1; k < n; ++k)
    threads.emplace_back([&, k] {
      at::ThreadLocalStateGuard same_state(state);
#if KFORGE_WITH_CUDA
      std::optional<c10::cuda::CUDAGuard> same_device;
      if (cuda) same_device.emplace(device);
#endif
      py::gil_scoped_acquire gil;
      start_twin(k);
    });
  start_twin(0);
  {
    py::gil_scoped_release unlocked;
    for (std::thread& t : threads) t.join();
  }
  // Whichever started is kept, whatever its place: the two start at once, so which of them fails
  // where only one can (the first to hold what both want) is a race, and the first's failure
  // threw away the second's process until session 51. Only where none started (and none was
  // kept) is the failure thrown, the first's, as one after the other throws it.
  const bool none_started = twins_.empty() && std::none_of(started.begin(), started.end(), [](const auto& t) { return t != nullptr; });
  for (size_t k = 0; k < n; ++k) {
    if (failed[k]) keep_or_throw(*failed[k], none_started, note_);
    else twins_.push_back(std::move(started[k]));
  }
}

void ReferenceTwins::start(WorkerContext& context, std::string key, const std::string& folder,
                           const std::function<TwinStart(size_t)>& start_for, bool cuda) {
  key_ = std::move(key);
  const auto t0 = std::chrono::steady_clock::now();
  if (context.twin_key == key_) twins_ = std::move(context.twins);
  if (context.twin_folder != folder) {  // their sandbox cannot read this problem: they end here
    context.twins.clear();
    context.idle_twins.clear();
    context.twin_folder = folder;
  }
  retire_twins(context, std::move(context.twins));  // another problem's, let go for this one
  context.twins.clear();
  const bool kept = !twins_.empty();
  if (twins_.size() + 1 < reference_twin_count() && twins_start_side_by_side()) start_side_by_side(context, start_for, cuda);
  else start_one_by_one(context, start_for, cuda);
  PhaseTrace::current().add(kept ? "load twin kept" : "load twin start",
                            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  clean_ = true;
}

Sample ReferenceTwins::call(const TimedCall& call, const std::function<Sample(RemoteCandidate&, const TimedCall&)>& timed_call) {
  clean_ = false;  // until the call answers
  Sample sample;
  bool watchdog = false;
  for (size_t i = 0; i < twins_.size(); ++i)
    if (call.pair < 0 || i == twin_for_pair(call.pair, twins_.size())) {
      sample = reference_failure([&] { return timed_call(*twins_[i], call); });
      sample.process = static_cast<int>(i);
      watchdog = watchdog || sample.watchdog;
    }
  sample.watchdog = watchdog;
  clean_ = true;
  return sample;
}

void ReferenceTwins::end_unless_wanted_next(WorkerContext& context, const protocol::EvalJob& job) {
  static const bool keep_always = environment_says("KFORGE_WORKER_TWINS_KEPT", "always");
  if (twins_.empty() || keep_always || job.next_job_same_problem.value_or(true)) return;
  TracedPart part("twin end");
  // Their problem let go while this job's census runs and its candidate's process ends; keep()
  // reads the answers. Those not asked end here (each one's arena let go, its process killed).
  if (clean_ && kept_after_)
    retiring_ = begin_retiring(context, std::move(twins_));
  twins_.clear();
}

void ReferenceTwins::keep(WorkerContext& context) {
  if (!retiring_.empty()) {
    TracedPart part("twin unload answered");
    finish_retiring(context, std::move(retiring_));
    retiring_.clear();
  }
  if (twins_.empty() || !clean_ || !kept_after_) return;
  context.twin_key = std::move(key_);
  context.twins = std::move(twins_);
}

}  // namespace kforge::worker
