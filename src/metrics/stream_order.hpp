#pragma once
// Whether a forward's kernels are ordered before its caller's stream when it returns, decided from
// the stream operations the forward issued (launches, event records and waits, host
// synchronisations), never from when the kernels happened to run: a kernel whose grid fills the
// GPU delays every other stream's kernels, so timestamps show occupancy, not order (issue 19's
// unjoined-stream rule; docs/evaluation.md). No CUDA here: worker/launch_recorder feeds it from
// CUPTI's driver-API callbacks, and the unit tests feed it by hand.
//
// The model is CUDA's: operations on one stream run in issue order; a wait on an event orders the
// waiting stream after everything its recording stream had been ordered after when it was
// recorded; the legacy default stream waits for all earlier work of every blocking stream, and a
// blocking stream waits for all earlier work of the legacy stream; a host synchronisation (of a
// stream, an event or the device) finishes what it covers before the host goes on.
#include <cstdint>
#include <functional>
#include <vector>

namespace kforge::census {

inline constexpr uint64_t kLegacyStream = 0;  // the legacy default stream (also CU_STREAM_LEGACY, mapped to 0)

struct StreamOp {
  enum class Kind { launch, record, wait, sync_stream, sync_event, sync_device };
  Kind kind = Kind::launch;
  uint64_t stream = 0;     // launch, record, wait, sync_stream
  uint64_t event = 0;      // record, wait, sync_event
  uint32_t launch_id = 0;  // launch: the caller's name for it (a CUPTI correlation id)
};

// The launches of `ops` that an operation issued on `caller` after all of `ops` would not be
// ordered after, and that no host synchronisation covered: work a caller reading the outputs on
// its stream would race. `blocking(stream)`: whether a stream other than the legacy one follows
// the legacy stream's implicit synchronisation (created without cudaStreamNonBlocking).
std::vector<uint32_t> unjoined_launches(const std::vector<StreamOp>& ops, uint64_t caller,
                                        const std::function<bool(uint64_t)>& blocking);

}  // namespace kforge::census
