#pragma once
// The messages of the worker protocol (protocol/frame.hpp carries them):
//   worker -> kforge  {"type":"hello", "protocol":1, "worker": WorkerInfo}
//   kforge -> worker  {"type":"eval", "nonce": S, "job": EvalJob}
//   worker -> kforge  {"type":"result", "nonce": S, "result": JobResult}   (S: a fresh secret per
//                     job; a result without it was not written by the worker's own code)
//   kforge -> worker  {"type":"shutdown"}
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_kinds.hpp"
#include "core/verdict.hpp"
#include "metrics/kernel_census.hpp"
#include "protocol/frame.hpp"

namespace kforge::protocol {

// What a worker reports about itself once started.
struct WorkerInfo {
  std::string python_version;
  std::string torch_version;
  std::string device_kind;  // "cpu" or "cuda"
  std::string device_name;  // "NVIDIA H200", or the CPU model
  int64_t l2_bytes = 0;     // CUDA only
  int sm_count = 0;         // CUDA only
  std::string compute_capability;  // CUDA only: major.minor, e.g. 9.0
  double copy_bytes_per_s = 0;     // CUDA only: device-to-device copy rate measured at start (bytes read + written)
  double max_sm_mhz = 0;           // CUDA only: the SM clock's maximum (NVML), for the compute floor
};

// Settings of the timing phase. Sampling stops at max_samples or max_time_s, or once at least
// min_samples pairs and min_time_s have passed and the speedup's confidence interval is narrower
// than target_rel_ci (relative half-width).
struct TimingSettings {
  // No warm-up pairs: the correctness trials called both models already, and every batch of
  // timed pairs starts with an untimed call of each (paired_timing.cpp).
  int warmup = 0;
  int min_samples = 20;
  int max_samples = 400;
  double min_time_s = 0.2;   // [s]
  double max_time_s = 5.0;   // [s]
  double target_rel_ci = 0.002;
  bool cuda_graph = false;   // time replays of a CUDA graph of each forward (CUDA only)
};

// One rank's place in a multi-rank job (issue 24, docs/notes/multi-rank-judge.md): N workers each
// evaluate one rank of the same job in lockstep. `rendezvous` is a folder of the orchestrator's,
// made for the job: the references' group meets through a file there, the candidates' through a
// file in its `candidates` folder (the one place they may all write). The candidates' private
// network comes with the worker (pool/worker_process.hpp, KFORGE_WORKER_RANK_NETWORK).
struct RankPlace {
  int rank = 0;
  int world_size = 1;
  std::string rendezvous;
  double timeout_s = 60;  // a collective that waits longer ends the evaluation (a rank that died)

  // The meeting folder's two parts, and the file each group meets through.
  std::string references_folder() const { return rendezvous + "/references"; }
  std::string candidates_folder() const { return rendezvous + "/candidates"; }
  std::string references_store() const { return references_folder() + "/store"; }
  std::string candidates_store() const { return candidates_folder() + "/store"; }
};

struct EvalJob {
  std::string problem_path;
  std::string candidate_path;
  CandidateFormat candidate_format = CandidateFormat::kernelbench;
  std::string candidate_library;     // cpp/cuda: the built shared library
  DeviceKind device = DeviceKind::cpu;
  Precision precision = Precision::fp32;  // the dtype floating tensors are cast to
  std::optional<double> atol;        // overrides of the per-dtype tolerance
  std::optional<double> rtol;
  std::vector<uint64_t> trial_seeds; // one correctness trial per seed; the last also seeds timing
  census::FallbackPolicy fallback = census::FallbackPolicy::mixed;
  bool time_candidate = true;
  TimingSettings timing;
  // What the candidate's process may take from the machine (kforge's --host-memory and
  // --cpu-share, watched by the reference process; 0: unbounded).
  int64_t host_memory_bytes = 0;  // resident [bytes]
  double cpu_cores = 0;           // cores kept busy on average over 3 s
  // What the candidate's scratch folder may hold on disk, and so its largest file (kforge's
  // --scratch-disk; 0: unbounded) [bytes].
  int64_t scratch_bytes = 0;
  std::optional<RankPlace> rank;  // a multi-rank problem's job: which rank this worker evaluates
  // Whether kforge's next job for this worker is likely of the same problem (its queue's next
  // entry: another worker may take it), so the worker keeps what serves it (its reference twins,
  // worker/reference_twin.hpp) or ends it at once; nothing where kforge cannot say (the run's
  // last job, after which an agent may send its next attempt), and the worker keeps them.
  std::optional<bool> next_job_same_problem;
};

struct JobResult {
  Verdict verdict = Verdict::runtime_error;
  std::string message;
  std::string rule;  // for rejected: the rule that fired
  int trials_passed = 0;
  int trials_total = 0;
  std::optional<double> max_abs_error;
  std::optional<double> max_rel_error;
  std::vector<double> ref_ms;       // per timed call, CUDA events on the current stream (or host on CPU) [ms]
  std::vector<double> cand_ms;
  std::vector<double> ref_host_ms;  // per timed call, host clock with a device-wide sync [ms]
  std::vector<double> cand_host_ms;
  // Which of the reference's two timing processes (the reference twins) timed each pair's
  // reference call, 0 or 1; empty where one process timed them all.
  std::vector<int> ref_process;
  double load_s = 0, correctness_s = 0, timing_s = 0;  // phase wall times [s]
  int64_t min_bytes = 0;  // one call's inputs plus outputs at the benchmark size: the least any kernel moves
  int64_t flops = 0;      // CUDA only: the reference's FLOPs at the benchmark size (0: not counted)
  bool worker_must_restart = false;  // a sticky CUDA error poisoned the worker's context
  bool not_the_candidates = false;   // ended by something no candidate could cause: not stored as its verdict
  // A multi-rank job: this rank failed only because another rank did (its collectives broke, or
  // the ranks agreed to stop); the merged verdict is the rank that failed first's.
  bool another_ranks_failure = false;
};

void to_json(nlohmann::json& j, const WorkerInfo& v);
void from_json(const nlohmann::json& j, WorkerInfo& v);
void to_json(nlohmann::json& j, const TimingSettings& v);
void from_json(const nlohmann::json& j, TimingSettings& v);
void to_json(nlohmann::json& j, const EvalJob& v);
void from_json(const nlohmann::json& j, EvalJob& v);
void to_json(nlohmann::json& j, const JobResult& v);
void from_json(const nlohmann::json& j, JobResult& v);

}  // namespace kforge::protocol
