#pragma once
// The worker's state across jobs (worker/job_loop.cpp makes it, worker/evaluate.hpp uses it): the
// GPU's clock monitor and stream hold, the zygote, the candidate processes started ahead, and the
// reference twin kept for the next job of its problem; and where a job's candidate process comes from.
#include <memory>
#include <string>
#include <vector>

#include "worker/gpu_clock.hpp"
#include "worker/stream_hold.hpp"
#include "worker/zygote_client.hpp"

namespace kforge::worker {

class RemoteCandidate;  // worker/remote_candidate.hpp

struct WorkerContext {
  bool cuda = false;
  int64_t l2_bytes = 0;
  std::shared_ptr<GpuClockMonitor> clock;  // CUDA: the GPU's SM clock and slowdown reasons (NVML)
  std::shared_ptr<StreamHold> hold;        // CUDA: holds the stream while a timed forward is queued
  std::string why_not_held;                // when `hold` is null
  std::unique_ptr<Zygote> zygote;          // starts candidate processes
  // Processes started ahead, oldest first (spare_processes() of them): once a job's candidate is
  // loaded (or when its result was sent, if it ended before), new ones start, stopped where they
  // are while anything is timed (SparesPaused). A job takes the oldest: one for its candidate and
  // one for each of its reference's timing processes (the reference twins,
  // worker/reference_twin.hpp), unless they were kept or an earlier problem's are idle below.
  // None has run candidate code.
  std::vector<std::unique_ptr<CandidateProcess>> spares;
  // The last evaluation's reference twins (worker/reference_twin.hpp), kept for the next job of the
  // same problem and timing (`twin_key`): candidates of one problem in a row (an agent's attempts,
  // a folder's samples) skip their start. They have run no candidate code; they are stopped while kept.
  std::vector<std::unique_ptr<RemoteCandidate>> twins;
  std::string twin_key;
  // Processes that timed an earlier problem's reference, that problem let go (retire_twins,
  // worker/reference_twin.hpp): a new problem's twins take them before any spare, their CUDA
  // contexts made already. They too have run no candidate code. `twin_folder` is the folder whose
  // problems every twin process here (kept or idle) may read: their sandbox, entered at their first
  // load, named it.
  std::vector<std::unique_ptr<CandidateProcess>> idle_twins;
  std::string twin_folder;
  // While a job that ran out of memory beside the spares is evaluated again without them
  // (job_loop.cpp, evaluate_again_without_spares): no spare starts, their memory being what it lacked.
  bool spares_held_back = false;
};

// How many spares the worker keeps. An evaluation of a new problem takes three (the candidate's
// process and the two reference twins') where no idle twin processes are left to take, else one;
// on CUDA it keeps six, so each spare has a whole job longer
// to make its context and open cuBLAS and cuDNN (candidate_host.cpp, warm_libraries) before a job
// takes it: as many spares as a job takes had only the correctness trials and the census for it.
// KFORGE_WORKER_SPARE_COUNT (2 to 8) sets it.
size_t spare_processes(bool cuda);

// Starts spares until there are spare_processes(), while nothing is timed (and none while
// `spares_held_back`); a failure is only logged (the next evaluation tries again and reports it).
void start_spare(WorkerContext& context);

// Ends every spare and waits for each to exit, so that the memory its CUDA context held is the
// device's again; returns how many there were.
size_t end_spares(WorkerContext& context);

// A spare if there is one, else a new process; ready to be given a candidate (or the reference).
std::unique_ptr<CandidateProcess> take_candidate_process(WorkerContext& context);

// A multi-rank job's candidate process for this worker's rank: forked fresh by the zygote into the
// job's private network (never a spare: those were forked before it existed), ready.
std::unique_ptr<CandidateProcess> rank_process(WorkerContext& context);
// Waits until the spare processes are ready and stopped, so that nothing of their start runs
// while a candidate is timed; a spare lost meanwhile is dropped (the next job starts one).
void settle_spare(WorkerContext& context);

// The oldest spare once it is ready (a lost one dropped, the next tried), left in the list; null
// when none is left.
CandidateProcess* oldest_ready_spare(WorkerContext& context);

// For the life of the object, nothing of the spares' start runs: each one still starting is
// stopped where it is (CandidateProcess::pause_start) and goes on when the object ends, its CUDA
// context made during the census and the correctness trials instead of being waited for before
// the timing (116 ms an evaluation, the median over level 1 on the H200, session 36). With
// KFORGE_WORKER_SPARES=settle the timing's (`settle_if_asked`) waits for them (settle_spare), as
// before. A spare taken meanwhile (take_candidate_process) goes on alone until it is ready.
class SparesPaused {
 public:
  explicit SparesPaused(WorkerContext& context, bool settle_if_asked = true);
  ~SparesPaused();
  SparesPaused(const SparesPaused&) = delete;
  SparesPaused& operator=(const SparesPaused&) = delete;

 private:
  WorkerContext& context_;
};

}  // namespace kforge::worker
