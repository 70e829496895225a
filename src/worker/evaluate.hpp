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
#include "worker/spare_processes.hpp"
#include "worker/zygote_client.hpp"

namespace kforge::worker {

struct WorkerContext {
  bool cuda = false;
  int64_t l2_bytes = 0;
  std::shared_ptr<GpuClockMonitor> clock;  // CUDA: the GPU's SM clock and slowdown reasons (NVML)
  std::shared_ptr<StreamHold> hold;        // CUDA: holds the stream while a timed forward is queued
  std::string why_not_held;                // when `hold` is null
  std::unique_ptr<Zygote> zygote;          // starts candidate processes
  SpareProcesses spares;                   // started ahead from the zygote, no candidate code in them
};

protocol::JobResult evaluate(const protocol::EvalJob& job, WorkerContext& context);

}  // namespace kforge::worker
