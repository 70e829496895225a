#pragma once
// One evaluation in the reference process (DESIGN.md "what correct and faster mean"):
//   load     the problem and its reference model, both built right after seeding 42, once; the
//            candidate in a process of its own (worker/remote_candidate.hpp), built the same way;
//   correct  one trial per secret seed: fresh inputs generated on the device, the reference on a
//            copy of its own, the candidate on another in its process; outputs compared per
//            dtype tolerance here; inputs checked for modification here;
//   timing   reference and candidate interleaved (ABBA) on the same inputs, cold L2 each sample,
//            until the speedup's interval is narrow enough or a cap is reached.
#include <memory>

#include "protocol/messages.hpp"
#include "worker/gpu_clock.hpp"
#include "worker/stream_hold.hpp"
#include "worker/zygote_client.hpp"

namespace kforge::worker {

struct WorkerContext {
  bool cuda = false;
  int64_t l2_bytes = 0;
  std::shared_ptr<GpuClockMonitor> clock;  // CUDA: the GPU's SM clock and slowdown reasons (NVML)
  std::shared_ptr<StreamHold> hold;        // CUDA: holds the stream while a timed forward is queued
  std::string why_not_held;                // when `hold` is null
  std::unique_ptr<Zygote> zygote;          // starts candidate processes
  // A candidate process started ahead, as soon as the previous evaluation's timing was done (or
  // when its result was sent, if it ended before timing): its CUDA context is made by the time the
  // next job needs it. It has run no candidate code.
  std::unique_ptr<CandidateProcess> spare;
};

// Starts the spare if there is none, while nothing is timed; a failure is only logged (the next
// evaluation tries again and reports it).
void start_spare(WorkerContext& context);

// The spare if there is one, else a new process; ready to be given a candidate.
std::unique_ptr<CandidateProcess> take_candidate_process(WorkerContext& context);

// A multi-rank job's candidate process for this worker's rank: forked fresh by the zygote into the
// job's private network (never a spare: those were forked before it existed), ready.
std::unique_ptr<CandidateProcess> rank_process(WorkerContext& context);
// Waits until the spare candidate process is ready and stopped, so that nothing of its start
// runs while a candidate is timed; a spare lost meanwhile is dropped (the next job starts one).
void settle_spare(WorkerContext& context);

protocol::JobResult evaluate(const protocol::EvalJob& job, WorkerContext& context);

}  // namespace kforge::worker
