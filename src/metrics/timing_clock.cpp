#include "metrics/timing_clock.hpp"

#include <algorithm>
#include <cmath>

#include "metrics/statistics.hpp"

namespace kforge::stats {
namespace {

std::vector<double> differences(const std::vector<double>& host, const std::vector<double>& event) {
  std::vector<double> out;
  for (size_t i = 0; i < std::min(host.size(), event.size()); ++i) out.push_back(host[i] - event[i]);
  return out;
}

}  // namespace

ClockChoice choose_clock(const std::vector<double>& ref_event_ms, const std::vector<double>& cand_event_ms,
                         const std::vector<double>& ref_host_ms, const std::vector<double>& cand_host_ms) {
  ClockChoice choice;
  if (cand_host_ms.size() != cand_event_ms.size() || ref_host_ms.size() != ref_event_ms.size() ||
      cand_event_ms.empty() || ref_event_ms.empty())
    return choice;
  double overhead_ref = median(differences(ref_host_ms, ref_event_ms));
  double overhead_cand = median(differences(cand_host_ms, cand_event_ms));
  choice.unseen_ms = overhead_cand - overhead_ref;
  // 5% of the candidate's own time, and at least 5 us: below that, overhead noise.
  choice.host = choice.unseen_ms > std::max(0.005, 0.05 * median(cand_event_ms));
  return choice;
}

BoundChoice choose_bound(const std::vector<double>& cand_host_ms, const std::vector<double>& cand_bound_ms) {
  BoundChoice choice;
  if (cand_bound_ms.size() != cand_host_ms.size() || cand_host_ms.empty()) return choice;
  choice.excess_ms = median(differences(cand_bound_ms, cand_host_ms));
  choice.slack_ms = choice.limit_ms = std::max(kBoundSlackMs, kBoundSlackShare * median(cand_host_ms));
  choice.use_bound = choice.excess_ms > choice.limit_ms;
  return choice;
}

BoundChoice choose_bound_against_twin(const std::vector<double>& cand_host_ms, const std::vector<double>& cand_delivery_ms,
                                      const std::vector<double>& twin_delivery_ms) {
  BoundChoice choice;
  if (cand_delivery_ms.size() != cand_host_ms.size() || cand_host_ms.empty() ||
      twin_delivery_ms.size() != cand_delivery_ms.size())
    return choice;
  // Pair by pair: the two calls of a pair run back to back, under the same load.
  std::vector<double> excess = differences(cand_delivery_ms, twin_delivery_ms);
  choice.excess_ms = median(excess);
  // The median's standard error from a spread (1.4826 MAD, times 1.2533 for a median): on a loaded
  // machine deliveries swing by milliseconds, and an honest identity's median excess with it.
  auto standard_error = [](const std::vector<double>& values) {
    const double centre = median(values);
    std::vector<double> deviation;
    for (double v : values) deviation.push_back(std::abs(v - centre));
    return 1.8582 * median(deviation) / std::sqrt(static_cast<double>(values.size()));
  };
  // The pairs' own spread, but never more than two twin deliveries' (sqrt(2) times the twin's
  // spread): the candidate's process writes its own reports, and one that scatters them widely
  // would otherwise widen the allowance it hides in. The twin's deliveries are kforge's (no
  // candidate code runs in it) and swing with the machine's load as the candidate's do.
  choice.standard_error_ms = std::min(standard_error(excess), std::sqrt(2.0) * standard_error(twin_delivery_ms));
  choice.slack_ms = std::max(kTwinSlackMs, kTwinSlackShare * median(cand_host_ms));
  choice.limit_ms = std::max(choice.slack_ms, kTwinStandardErrors * choice.standard_error_ms);
  choice.use_bound = choice.excess_ms > choice.limit_ms;
  return choice;
}

}  // namespace kforge::stats
