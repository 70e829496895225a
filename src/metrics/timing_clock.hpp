#pragma once
// Which clock a timed comparison uses. CUDA events see only the stream they were recorded on; the
// host clock around a device-wide synchronize sees every stream, at the price of a few
// microseconds of launch and sync overhead per call. The events are used unless the candidate's
// calls took longer by the host clock than by its events, beyond the same overhead measured on
// the reference's calls: then part of its work ran where the events did not look (another
// stream), and both sides are compared by the host clock (REFERENCE.md section 5, "side stream").
#include <vector>

namespace kforge::stats {

struct ClockChoice {
  bool host = false;       // compare host-clock samples instead of event samples
  double unseen_ms = 0.0;  // median per-call time of the candidate's that its events did not see
};

ClockChoice choose_clock(const std::vector<double>& ref_event_ms, const std::vector<double>& cand_event_ms,
                         const std::vector<double>& ref_host_ms, const std::vector<double>& cand_host_ms);

// Whether a candidate's own reported times are believed. A candidate runs in a process of its
// own, which reports the times of its calls; the reference process's clock around each request
// (less what an empty request cost before any candidate code was loaded) bounds them from above.
// The gap between the two is the request's delivery, about constant for an honest process. When
// its median exceeds the calibrated cost by more than the slack (0.25 ms, or 10% of the
// candidate's median host time, whichever is more), the process reported less than it took, and
// the bound replaces its host and event times. The slack is what honest processes were seen to
// need on the H200 (up to 0.19 ms per call, docs/benchmarks.md session 11), so a process that
// forges its times can hide at most that much per call.
inline constexpr double kBoundSlackMs = 0.25;    // [ms]
inline constexpr double kBoundSlackShare = 0.10;  // of the candidate's median host time
struct BoundChoice {
  bool use_bound = false;
  double excess_ms = 0.0;  // median(bound - reported host): how much the reports fell short
};
BoundChoice choose_bound(const std::vector<double>& cand_host_ms, const std::vector<double>& cand_bound_ms);

}  // namespace kforge::stats
