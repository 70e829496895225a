#include "planner/executor.hpp"

#include "core/seeds.hpp"
#include "core/rules.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <cstdio>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "metrics/statistics.hpp"
#include "metrics/speed_of_light.hpp"
#include "metrics/timing_clock.hpp"
#include "pool/build_cpus.hpp"
#include "pool/worker_paths.hpp"
#include "suite/candidate.hpp"
#include "pool/rank_job.hpp"
#include "planner/job_queue.hpp"
#include "planner/result_sink.hpp"
#include "pool/worker_process.hpp"
#include "report/results_table.hpp"
#include "serve/remote_worker.hpp"

namespace kforge {
namespace {

// Trial seeds come from the OS entropy source per job: a candidate cannot know them in advance.
std::vector<uint64_t> fresh_seeds(int n) {
  std::random_device rd;
  std::vector<uint64_t> seeds;
  for (int i = 0; i < n; ++i) seeds.push_back(seed_bits(uint64_t(rd()) << 32 | rd()));
  return seeds;
}

}  // namespace

EvaluationRecord make_record(const PlannedEval& e, const std::string& eval_key, const nlohmann::json& settings,
                             const protocol::WorkerInfo& worker, const std::string& device_label,
                             const JobOutcome& outcome, double wall_s, std::optional<double> drawn_before) {
  EvaluationRecord r;
  r.eval_key = eval_key;
  r.problem_hash = e.problem.hash;
  r.candidate_hash = e.candidate.hash;
  r.problem_name = e.problem_name;
  r.candidate_name = e.candidate_name;
  r.level = e.problem.level;
  r.problem_id = e.problem.id;
  r.device = device_label;
  r.device_name = worker.device_name;
  r.torch_version = worker.torch_version;
  r.settings = settings;
  r.wall_s = wall_s;
  switch (outcome.failure) {
    case JobFailure::timeout:
      r.verdict = Verdict::timeout;
      r.message = outcome.detail;
      return r;
    case JobFailure::crashed:
    case JobFailure::protocol:
      r.verdict = Verdict::crashed;
      r.message = outcome.detail;
      return r;
    case JobFailure::host_memory:  // a memory bomb, or a candidate that needs more than allowed
    case JobFailure::cpu_share:    // threads on more cores than the job's share
      r.verdict = Verdict::runtime_error;
      r.message = outcome.detail;
      return r;
    case JobFailure::forged:
      r.verdict = Verdict::rejected;
      r.rule = std::string(rules::kForgedResult);
      r.message = outcome.detail;
      return r;
    case JobFailure::none:
      break;
  }
  const auto& res = outcome.result;
  r.load_s = res.load_s;
  r.correctness_s = res.correctness_s;
  r.timing_s = res.timing_s;
  r.verdict = res.verdict;
  r.message = res.message;
  r.rule = res.rule;
  if (r.verdict == Verdict::crashed && device_label == "cuda" && host_code_extension(e.candidate.source))
    r.message = with_host_code_hint(std::move(r.message));
  r.trials_passed = res.trials_passed;
  r.trials_total = res.trials_total;
  r.max_abs_error = res.max_abs_error;
  r.max_rel_error = res.max_rel_error;
  r.ref_samples_ms = res.ref_ms;
  r.cand_samples_ms = res.cand_ms;
  r.ref_host_ms = res.ref_host_ms;
  r.cand_host_ms = res.cand_host_ms;
  r.ref_process = res.ref_process;
  auto clock = stats::choose_clock(res.ref_ms, res.cand_ms, res.ref_host_ms, res.cand_host_ms);
  const auto& ref_samples = clock.host ? res.ref_host_ms : res.ref_ms;
  const auto& cand_samples = clock.host ? res.cand_host_ms : res.cand_ms;
  if (!ref_samples.empty()) r.ref_ms = stats::median(ref_samples);
  if (!cand_samples.empty()) r.cand_ms = stats::median(cand_samples);
  if (r.verdict == Verdict::correct) {
    if (auto est = stats::paired_speedup(ref_samples, cand_samples)) {
      r.speedup = est->speedup;
      // The reference timed in two processes (worker/reference_twin.hpp): how far apart they came,
      // and the interval widened where that is more than the fixed allowance and the noise explain.
      const auto apart = stats::reference_processes_apart(ref_samples, cand_samples, res.ref_process);
      const double allowance = stats::process_allowance(apart, *est);
      // Stored for the problem's next evaluations: no more than the twins' own times show, since
      // a candidate that runs slower on one twin's pairs than on the other's (their turns are in
      // kforge's source) makes them look apart through its own times, and would otherwise widen
      // every later candidate's interval on the problem.
      if (apart)
        r.process_allowance = std::min(
            allowance, stats::process_allowance(stats::reference_processes_apart_alone(ref_samples, res.ref_process), *est));
      // Where the problem's processes drew apart before on this device, this candidate's one
      // process may have drawn too, though both twins agree here (level1/83 on the H200: 0.84 with
      // its twins 0.06% apart, session 51): the interval is widened as far as it was then.
      const bool drew_before = drawn_before && *drawn_before > allowance;
      r.speedup_ci = stats::with_systematic_allowance(est->ci95, drew_before ? *drawn_before : allowance);
      if (apart) {
        r.message += fmt::format("; the reference's two timing processes {:.2f}% apart", 100 * *apart);
        if (allowance > stats::kSystematicAllowance)
          r.message += fmt::format(" (the interval widened to {:.2f}% a side for it)", 100 * allowance);
      }
      if (drew_before)
        r.message += fmt::format("; the interval widened to {:.2f}% a side: this problem's timing processes drew speeds "
                                 "that far apart on this device before",
                                 100 * *drawn_before);
    }
    if (clock.host)
      r.message += fmt::format("; timed by the host clock: {:.3f} ms of each call ran outside the stream the CUDA "
                               "events saw", clock.unseen_ms);
    const auto memory = stats::memory_floor_ms(res.min_bytes, worker.copy_bytes_per_s);
    const auto compute = stats::compute_floor_ms(res.flops, worker.sm_count, worker.max_sm_mhz);
    const auto floor = stats::rejection_floor(memory, compute);
    if (floor && r.cand_ms && *r.cand_ms < floor->ms) {
      r.verdict = Verdict::rejected;
      r.rule = std::string(rules::kSpeedOfLight);
      r.message =
          floor->compute
              ? fmt::format("the candidate's median {:.4f} ms is below the compute speed of light, {:.4f} ms: the "
                            "reference's {:.3g} GFLOP, even {:.0f}x fewer, at {:.0f} FLOP per SM per clock on {} SMs "
                            "at {:.0f} MHz take longer, so the timer did not see all of its work",
                            *r.cand_ms, floor->ms, res.flops / 1e9, stats::kAlgorithmicSaving,
                            stats::kTensorFlopsPerSmClock, worker.sm_count, worker.max_sm_mhz)
              : fmt::format("the candidate's median {:.4f} ms is below the memory speed of light, {:.4f} ms: reading "
                            "its inputs and writing its outputs once ({:.3f} GB) at {:.2f} x the device's measured "
                            "copy rate ({:.2f} TB/s) takes longer, so the timer did not see all of its work",
                            *r.cand_ms, floor->ms, res.min_bytes / 1e9, stats::kCopyRateMargin,
                            worker.copy_bytes_per_s / 1e12);
      r.speedup.reset();
      r.speedup_ci.reset();
    } else if (floor && r.cand_ms) {
      r.message += fmt::format("; {} speed of light {:.4f} ms ({:.0f}% of it reached)",
                               floor->compute ? "compute" : "memory", floor->ms, 100.0 * floor->ms / *r.cand_ms);
    }
  }
  return r;
}

WorkerConfig worker_config(const ExecutorConfig& config, const std::string& id) {
  WorkerConfig wc;
  wc.python = worker_python();
  wc.module_dir = worker_module_dir();
  wc.device = config.cuda ? "cuda" : "cpu";
  wc.cuda_visible_devices = id;
  wc.host_memory_bytes = config.host_memory_bytes;
  wc.cpu_cores = config.cpu_cores;
  wc.log_path = config.log_dir / (config.cuda ? "worker-cuda" + id + ".log" : "worker-cpu.log");
  return wc;
}

// The time limit is left out of the store's key, so a result is reused under any --timeout; but
// a `timeout` verdict says only that the candidate did not finish in the limit it had, and under a
// larger limit it is run again (as is one stored before the limit was recorded).
static bool reusable(const EvaluationRecord& stored, const EvalSettings& settings) {
  if (stored.verdict != Verdict::timeout) return true;
  const auto& limit = stored.settings.is_object() ? stored.settings.value("timeout_s", nlohmann::json()) : nlohmann::json();
  return limit.is_number() && limit.get<double>() >= settings.timeout_s;
}

namespace {

// One worker's thread over the plan (execute_plan runs one per entry of config.worker_devices):
// start the worker, then take jobs from the queue until it is empty, each judged without a job
// where its source or build already decides it, reused where the store has it, else run; every
// record goes to the sink.
class WorkerLoop {
 public:
  struct Shared {
    std::vector<PlannedEval>& plan;
    const EvalSettings& settings;
    const ExecutorConfig& config;
    Store& store;
    int64_t run_id;
    const OnStarted& on_started;
    const nlohmann::json key_settings;
    JobQueue& queue;
    ResultSink& sink;
    // A worker that could not start: its device is lost for the run, the other workers take its
    // share (guarded by the sink's mutex).
    size_t failed_workers = 0;
    std::string fatal;
  };

  WorkerLoop(Shared& shared, size_t worker_index) : shared_(shared), worker_index_(worker_index) {}

  void run() {
    std::unique_ptr<JobRunner> runner;
    if (!shared_.config.server.empty()) runner = std::make_unique<serve::RemoteWorker>(shared_.config.server);
    else runner = std::make_unique<WorkerProcess>(worker_config(shared_.config, shared_.config.worker_devices[worker_index_]));
    try {
      info_ = runner->ensure_started();
      device_label_ = runner->device_label();
    } catch (const Error& e) {
      std::lock_guard lock(shared_.sink.mutex());
      shared_.fatal = e.what();
      ++shared_.failed_workers;
      return;
    }
    while (auto i = shared_.queue.take()) judge(*runner, *i);
  }

 private:
  static JobOutcome settled(Verdict verdict, const std::string& message) {
    JobOutcome outcome;
    outcome.result.verdict = verdict;
    outcome.result.message = message;
    return outcome;
  }

  void judge(JobRunner& worker, size_t i) {
    const PlannedEval& e = shared_.plan[i];
    if (!e.load_failure.empty()) return unreadable(i, e);
    const std::string key = evaluation_key(e, shared_.key_settings, info_);
    if (e.static_finding) {  // rejected from its source, without a job; stored like any result
      JobOutcome outcome = settled(Verdict::rejected, e.static_finding->message);
      outcome.result.rule = e.static_finding->rule;
      EvaluationRecord r = make_record(e, key, shared_.key_settings, info_, device_label_, outcome, 0.0);
      std::lock_guard lock(shared_.sink.mutex());
      return shared_.sink.finish(i, std::move(r), true);
    }
    if (e.build_failure) {  // judged without a job, and stored like any result
      EvaluationRecord r = make_record(e, key, shared_.key_settings, info_, device_label_,
                                       settled(Verdict::compile_error, *e.build_failure), 0.0);
      std::lock_guard lock(shared_.sink.mutex());
      return shared_.sink.finish(i, std::move(r), true);
    }
    {
      std::lock_guard lock(shared_.sink.mutex());
      if (!shared_.settings.force)
        if (auto stored = shared_.store.find_evaluation(key); stored && reusable(*stored, shared_.settings)) {
          stored->problem_name = e.problem_name;
          stored->candidate_name = e.candidate_name;
          stored->level = e.problem.level;
          stored->problem_id = e.problem.id;
          stored->reused = true;
          return shared_.sink.finish(i, std::move(*stored), false);
        }
      if (shared_.on_started) shared_.on_started(e, i, shared_.plan.size());
    }
    run_job(worker, i, e, key);
  }

  // Unreadable: no content to key a stored result by. Not an evaluation, but a failure of the
  // run's: its fast_p counts it.
  void unreadable(size_t i, const PlannedEval& e) {
    EvaluationRecord r = make_record(e, "unreadable:" + e.candidate_name, shared_.key_settings, info_, device_label_,
                                     settled(Verdict::load_error, e.load_failure), 0.0);
    std::lock_guard lock(shared_.sink.mutex());
    try {
      shared_.store.add_gap(shared_.run_id, {e.problem_name, e.candidate_name, e.problem.level, e.problem.id, "load_error", e.load_failure});
    } catch (const Error& err) {
      std::fprintf(stderr, "kforge: the store refused the record of an unreadable candidate (%s)\n", err.what());
    }
    shared_.sink.finish(i, std::move(r), false, false);
  }

  protocol::EvalJob job_for(const PlannedEval& e) const {
    protocol::EvalJob job;
    job.problem_path = e.problem.path.string();
    job.candidate_path = e.candidate.path.string();
    job.candidate_format = e.format;
    job.candidate_library = e.library.string();
    job.device = shared_.config.cuda ? DeviceKind::cuda : DeviceKind::cpu;
    // Both checked where they enter: --precision by the command line, a problem's declaration when it loads.
    const std::string precision = shared_.settings.precision.empty() ? e.problem.default_precision() : shared_.settings.precision;
    job.precision = precision_from_string(precision).value_or(Precision::fp32);
    job.atol = shared_.settings.atol;
    job.rtol = shared_.settings.rtol;
    job.fallback = census::policy_from_string(shared_.settings.fallback).value_or(census::FallbackPolicy::mixed);
    job.trial_seeds = fresh_seeds(shared_.settings.correctness_trials);
    job.timing = shared_.settings.timing;
    job.scratch_bytes = static_cast<int64_t>(shared_.settings.scratch_disk_gib * double(int64_t{1} << 30));
    return job;
  }

  // The candidate runs in a process of its own, which it cannot leave, and the reference process
  // cannot be signalled from it: a reference process that dies was killed from outside (an
  // operator, the OOM killer) or broke on the problem. The job is run once more in a fresh worker,
  // and a second death is reported but not stored as the candidate's verdict.
  JobOutcome outcome_of(JobRunner& worker, const protocol::EvalJob& job, const PlannedEval& e) {
    JobOutcome outcome;
    const auto limit = std::chrono::seconds(shared_.settings.timeout_s);
    for (int attempt = 0; attempt < 2; ++attempt) {
      try {
        // A multi-rank problem's job runs on workers of its own, one per rank (pool/rank_job.hpp).
        outcome = e.problem.world_size > 1
                      ? run_rank_job(job, e.problem.world_size, worker_config(shared_.config, shared_.config.worker_devices[worker_index_]), limit)
                      : worker.run(job, limit);
      } catch (const Error& err) {  // the worker could not be restarted for this job
        outcome.failure = JobFailure::crashed;
        outcome.detail = err.what();
      }
      if (outcome.failure != JobFailure::crashed) break;
      std::fprintf(stderr, "kforge: the worker died during %s (%s)%s\n", e.candidate_name.c_str(), outcome.detail.c_str(),
                   attempt == 0 ? "; running the job again in a fresh worker" : "");
    }
    return outcome;
  }

  // How far the problem's timing processes were seen to draw apart on this device before (a
  // correct result's interval is widened as far); nothing where the store cannot say.
  std::optional<double> drawn_before(const PlannedEval& e, const JobOutcome& outcome) {
    if (outcome.failure != JobFailure::none || outcome.result.verdict != Verdict::correct) return std::nullopt;
    std::lock_guard lock(shared_.sink.mutex());
    try {
      return shared_.store.largest_process_allowance(e.problem.hash, info_.device_name, info_.torch_version,
                                                     stats::kSystematicAllowance);
    } catch (const Error& err) {
      std::fprintf(stderr, "kforge: the store could not say whether %s's processes drew apart before (%s)\n",
                   e.problem_name.c_str(), err.what());
      return std::nullopt;
    }
  }

  void run_job(JobRunner& worker, size_t i, const PlannedEval& e, const std::string& key) {
    protocol::EvalJob job = job_for(e);
    // The worker ends this problem's reference twins after the timing where the queue's next job
    // is another problem's (worker/reference_twin.hpp). After the queue's last job this run cannot
    // say what comes next (an agent's next attempt at the problem, through `kforge serve`'s
    // workers): unknown, and the worker keeps them.
    if (const std::optional<size_t> next = shared_.queue.next_to_take())
      job.next_job_same_problem = shared_.plan[*next].problem.hash == e.problem.hash;
    const auto t0 = std::chrono::steady_clock::now();
    const JobOutcome outcome = outcome_of(worker, job, e);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    nlohmann::json stored_settings = shared_.key_settings;
    stored_settings["trial_seeds"] = job.trial_seeds;
    stored_settings["precision"] = to_string(job.precision);  // as resolved for this problem
    stored_settings["timeout_s"] = shared_.settings.timeout_s;      // not in the key: see reusable()
    EvaluationRecord r = make_record(e, key, stored_settings, info_, device_label_, outcome, wall, drawn_before(e, outcome));
    const bool worker_died = outcome.failure == JobFailure::crashed;
    if (worker_died) r.message = "the reference process died twice, not the candidate's: " + r.message + " (not stored)";
    // Another process's work on the GPU (worker/remote_candidate.cpp, drain_gpu): every job on
    // this GPU meets it until it ends; each says so, none stores a verdict.
    const bool not_the_candidates = outcome.failure == JobFailure::none && outcome.result.not_the_candidates;
    if (not_the_candidates) {
      r.message += " (not the candidate's doing: not stored)";
      std::fprintf(stderr, "kforge: %s: %s\n", e.candidate_name.c_str(), r.message.c_str());
    }
    const bool store_it = !worker_died && !not_the_candidates;
    std::lock_guard lock(shared_.sink.mutex());
    shared_.sink.finish(i, std::move(r), store_it, store_it);
  }

  Shared& shared_;
  const size_t worker_index_;
  protocol::WorkerInfo info_;
  std::string device_label_;
};

}  // namespace

std::vector<EvaluationRecord> execute_plan(std::vector<PlannedEval>& plan, const EvalSettings& settings,
                                           const ExecutorConfig& config, Store& store, int64_t run_id,
                                           const Prepare& prepare, const OnStarted& on_started,
                                           const OnFinished& on_finished) {
  std::vector<EvaluationRecord> records(plan.size());
  if (plan.empty()) return records;
  JobQueue queue(plan.size(), [&](size_t i) { return prepare.run && prepare.waits && prepare.waits(plan[i]); });
  ResultSink sink(store, run_id, records, on_finished);
  WorkerLoop::Shared shared{plan, settings, config, store, run_id, on_started, settings_json(settings), queue, sink, 0, {}};

  std::vector<std::thread> threads;
  for (size_t w = 0; w < config.worker_devices.size(); ++w)
    threads.emplace_back([&shared, w] { WorkerLoop(shared, w).run(); });
  std::exception_ptr prepare_error;
  if (prepare.run) {
    // The workers' threads are started: only the builds, started from here, stay off their
    // timing CPUs (pool/build_cpus.hpp).
    BuildsOffTimingCpus builds_off(config.worker_devices, config.cuda);
    try {
      prepare.run([&queue](size_t i) { queue.mark_ready(i); }, sink.mutex());
    } catch (...) {
      prepare_error = std::current_exception();
    }
    queue.close(!prepare_error);
  }
  for (auto& t : threads) t.join();
  sink.flush_or_keep_in_file(kStoreGiveUp);
  if (prepare_error) std::rethrow_exception(prepare_error);
  if (shared.failed_workers == config.worker_devices.size()) throw Error(shared.fatal);  // nothing could run
  if (shared.failed_workers > 0)
    std::fprintf(stderr, "kforge: %zu of %zu workers failed to start; the others ran every job. Last error: %s\n",
                 shared.failed_workers, config.worker_devices.size(), shared.fatal.c_str());
  std::erase_if(records, [](const EvaluationRecord& r) { return r.eval_key.empty(); });
  return records;
}

}  // namespace kforge
