#include "worker/reference_twin.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "common/environment_says.hpp"
#include "worker/file_text.hpp"
#include "worker/phase_trace.hpp"

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

size_t reference_twin_count() {
  static const size_t count = static_cast<size_t>(environment_integer("KFORGE_WORKER_TWINS", 1, 2).value_or(2));
  return count;
}

size_t twin_for_pair(int pair, size_t twins) {
  if (twins < 2 || pair < 0) return 0;
  return static_cast<size_t>(pair / 2) % twins;
}

namespace {

// A new twin from a spare or a fresh process. Failures are the reference's (reference_failure).
std::unique_ptr<RemoteCandidate> start_reference_twin(WorkerContext& context, TwinStart&& start, bool cuda) {
  return reference_failure([&] {
    std::optional<TracedPart> part(std::in_place, "twin take process");
    auto twin = std::make_unique<RemoteCandidate>(take_candidate_process(context), cuda, context.clock.get());
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
    part.emplace("twin calibrate");
    // Its inputs are let go once it is done: the first call below chooses plans from the free
    // memory it sees.
    twin->calibrate(py::list(std::move(start.calibration_inputs)), [&] { return start.output_bytes; }, calibration);
    part.emplace("twin load");
    twin->load_reference(start.job, start.training);
    // The candidate's first trial again, as its process will make it: the first forward, which
    // chooses the libraries' plans, from the same settled allocator and poisoned memory.
    RemoteCandidate::CallOptions options;
    options.what = "the reference twin's first call";
    options.output_bytes = start.output_bytes;
    options.poison = true;
    options.forward_seed = start.first_forward_seed;
    options.settle_allocator = start.settle_bytes;
    part.emplace("twin first inputs");
    py::list inputs = start.first_inputs();
    part.emplace("twin first call");
    twin->call(inputs, options);
    return twin;
  });
}

}  // namespace

void ReferenceTwins::start(WorkerContext& context, std::string key, const std::function<TwinStart(size_t)>& start_for,
                           bool cuda) {
  key_ = std::move(key);
  const auto t0 = std::chrono::steady_clock::now();
  if (context.twin_key == key_) twins_ = std::move(context.twins);
  context.twins.clear();  // another problem's end here
  const bool kept = !twins_.empty();
  for (size_t i = twins_.size(); i < reference_twin_count(); ++i) {
    try {
      twins_.push_back(start_reference_twin(context, start_for(i), cuda));
    } catch (const Failure& f) {
      if (twins_.empty() || f.not_the_candidates) throw;
      note_ = "the reference timed in one process (a second did not start: " + f.message + ")";
      std::fprintf(stderr, "kforge worker: %s\n", note_.c_str());
      break;
    }
  }
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

void ReferenceTwins::keep(WorkerContext& context) {
  if (twins_.empty() || !clean_ || !kept_after_) return;
  context.twin_key = std::move(key_);
  context.twins = std::move(twins_);
}

}  // namespace kforge::worker
