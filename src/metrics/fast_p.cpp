#include "metrics/fast_p.hpp"

#include <cmath>

namespace kforge::metrics {

double fast_p(std::span<const Outcome> outcomes, double p) {
  if (outcomes.empty()) return 0.0;
  size_t fast = 0;
  for (const auto& o : outcomes) {
    if (!o.correct) continue;
    if (p <= 0.0 || (o.speedup && *o.speedup > p)) ++fast;
  }
  return double(fast) / double(outcomes.size());
}

std::optional<double> geometric_mean_speedup(std::span<const Outcome> outcomes) {
  double log_sum = 0;
  size_t n = 0;
  for (const auto& o : outcomes)
    if (o.correct && o.speedup && *o.speedup > 0) {
      log_sum += std::log(*o.speedup);
      ++n;
    }
  if (n == 0) return std::nullopt;
  return std::exp(log_sum / double(n));
}

}  // namespace kforge::metrics
