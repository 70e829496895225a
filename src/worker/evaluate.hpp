#pragma once
// One evaluation inside the worker (DESIGN.md "what correct and faster mean"):
//   load     problem and candidate modules; both models built right after seeding 42, once;
//   correct  one trial per secret seed: fresh inputs generated on the device, cloned per model,
//            candidate first (on NaN-poisoned free memory), then the reference; outputs compared
//            per dtype tolerance; inputs checked for modification;
//   timing   reference and candidate interleaved (ABBA) on the same inputs, cold L2 each sample,
//            until the speedup's interval is narrow enough or a cap is reached.
#include <memory>

#include "protocol/messages.hpp"
#include "worker/gpu_clock.hpp"
#include "worker/stream_hold.hpp"

namespace kforge::worker {

struct WorkerContext {
  bool cuda = false;
  int64_t l2_bytes = 0;
  std::shared_ptr<GpuClockMonitor> clock;  // CUDA: the GPU's SM clock and slowdown reasons (NVML)
  // CUDA: holds the stream while a timed forward is queued. Made once per worker, before any
  // candidate runs: its watchdog thread must not look like a thread a native candidate started.
  std::shared_ptr<StreamHold> hold;
  std::string why_not_held;  // when `hold` is null
};

protocol::JobResult evaluate(const protocol::EvalJob& job, const WorkerContext& context);

}  // namespace kforge::worker
