#pragma once
// Runs a plan: one long-lived worker per device, each pulling jobs from a shared queue; results
// are stored one by one as they finish (so a killed run keeps everything already done).
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/evaluation.hpp"
#include "planner/plan.hpp"
#include "pool/worker_process.hpp"
#include "store/store.hpp"

namespace kforge {

// How long, after the last job, results the store refused (a lock held by another writer, a full
// disk) are tried again before they go to a file beside the store and the run fails.
inline constexpr std::chrono::seconds kStoreGiveUp{60};

struct ExecutorConfig {
  std::vector<std::string> worker_devices;  // "cpu", or one CUDA_VISIBLE_DEVICES id per GPU worker
  bool cuda = false;
  std::filesystem::path log_dir;            // worker logs
  int64_t host_memory_bytes = 0;            // per worker, resident (0: unbounded)
  double cpu_cores = 0;                     // per worker, busy cores averaged over 3 s (0: unbounded)
  // A `kforge serve` socket: its warm workers run the jobs (one lease per entry of
  // worker_devices), with the server's own bounds; the fields above but `cuda` are then unused.
  std::filesystem::path server;
};

// Called in finishing order, from one thread at a time, after the record is stored.
using OnFinished = std::function<void(const EvaluationRecord&, size_t done, size_t total)>;
// Called when a job starts (for the progress line).
using OnStarted = std::function<void(const PlannedEval&, size_t index, size_t total)>;

// The builds, run on the calling thread while the workers start and evaluate (a worker takes
// seconds to import torch and create its CUDA context). `waits(e)`: the job of `e` waits for its
// build; `run(ready)` builds, fills in the plan's build results, and calls ready(i) as soon as
// plan[i]'s build is done, so the workers take it while later builds go on. Every job is ready
// once `run` returns.
// `store_mutex` guards the store, which running jobs use meanwhile.
struct Prepare {
  std::function<bool(const PlannedEval&)> waits;
  std::function<void(const std::function<void(size_t)>& ready, std::mutex& store_mutex)> run;
};

// Evaluates `plan`, each job as soon as a worker is free and its build is done, the earliest in
// plan order first; returns the records in plan order. Throws kforge::Error when no worker can
// start at all, and rethrows what `prepare` throws (after stopping the workers).
std::vector<EvaluationRecord> execute_plan(std::vector<PlannedEval>& plan, const EvalSettings& settings,
                                           const ExecutorConfig& config, Store& store, int64_t run_id,
                                           const Prepare& prepare, const OnStarted& on_started,
                                           const OnFinished& on_finished);

// The worker process for device `id` ("cpu", or a CUDA_VISIBLE_DEVICES id) under `config`'s
// bounds and log folder: what execute_plan starts, and what `kforge serve` keeps warm.
WorkerConfig worker_config(const ExecutorConfig& config, const std::string& id);

// Turns what a worker said (or failed to say) into the stored record. Exposed for tests.
// `drawn_before`: the largest allowance the problem's earlier intervals on this device and torch
// got from their twins' distance (Store::largest_process_allowance), which widens this one's too.
EvaluationRecord make_record(const PlannedEval& e, const std::string& eval_key, const nlohmann::json& settings,
                             const protocol::WorkerInfo& worker, const std::string& device_label,
                             const JobOutcome& outcome, double wall_s,
                             std::optional<double> drawn_before = std::nullopt);

}  // namespace kforge
