#pragma once
// One evaluation in the reference process (DESIGN.md "what correct and faster mean"):
//   load     the problem and its reference model, both built right after seeding 42, once; the
//            candidate in a process of its own (worker/remote_candidate.hpp), built the same way;
//   correct  one trial per secret seed: fresh inputs generated on the device, the reference on a
//            copy of its own, the candidate on another in its process; outputs compared per
//            dtype tolerance here; inputs checked for modification here;
//   timing   reference and candidate interleaved (ABBA) on the same inputs, cold L2 each sample,
//            until the speedup's interval is narrow enough or a cap is reached.
#include "protocol/messages.hpp"
#include "worker/worker_context.hpp"

namespace kforge::worker {

protocol::JobResult evaluate(const protocol::EvalJob& job, WorkerContext& context);

}  // namespace kforge::worker
