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
  double slack_ms = 0.0;   // what honest processes need on a quiet machine (a floor, or a share of the call)
  double limit_ms = 0.0;   // the excess past which the bound is used: the slack, or the noise's allowance
  double standard_error_ms = 0.0;  // of excess_ms, where the rule estimates it (against the twin)
  // Past the slack but within the noise's allowance: more pairs would decide it (the timing goes on).
  bool undecided() const { return !use_bound && excess_ms > slack_ms; }
};
BoundChoice choose_bound(const std::vector<double>& cand_host_ms, const std::vector<double>& cand_bound_ms);

// The same judgement against the reference twin (worker/reference_twin.hpp), whose calls travel
// the same way in the same run: a call's delivery is kforge's clock around its request less the
// time its process reported (and, held, its queueing), and an honest candidate's deliveries are
// the twin's, give or take the noise, whatever either process's calibration said (on a loaded
// 2-core machine their calibrated costs differed by 0.35 ms while their median deliveries were
// within 0.03 ms of each other). The deliveries are compared pair by pair (the two calls of a
// pair run back to back, under the same load). When the median excess of the candidate's exceeds
// the twin's slack (0.05 ms, or 5% of its median host time, or three standard errors of that
// median where the machine's load makes deliveries swing: an honest identity was charged 0.098 ms
// on a loaded 2-core machine by a comparison of medians without it; the standard error from the
// pairs' excesses, at most what two twin deliveries' spread gives, so that a forger cannot widen it
// by scattering its reports), the excess is what its reports
// left out, and `excess_ms` is to be added to each of its times. A process that rewrote its own
// clock (a native candidate patching steady_clock::now: 7.5x correct for a true 0.69x on the CPU,
// session 35) hides at most the slack. Without twin samples: choose_bound.
inline constexpr double kTwinSlackMs = 0.05;    // [ms]
inline constexpr double kTwinSlackShare = 0.05;  // of the candidate's median host time
inline constexpr double kTwinStandardErrors = 3.0;
BoundChoice choose_bound_against_twin(const std::vector<double>& cand_host_ms, const std::vector<double>& cand_delivery_ms,
                                      const std::vector<double>& twin_delivery_ms);

}  // namespace kforge::stats
