#include "metrics/fast_p.hpp"

#include <cmath>

namespace kforge::metrics {

namespace {

// Correct, and faster than p x the reference (p = 0: correct, timed or not).
bool is_fast(const Outcome& o, double p) { return o.correct && (p <= 0.0 || (o.speedup && *o.speedup > p)); }

size_t count_fast(std::span<const Outcome> outcomes, double p) {
  size_t fast = 0;
  for (const auto& o : outcomes) fast += is_fast(o, p);
  return fast;
}

}  // namespace

double fast_p(std::span<const Outcome> outcomes, double p) {
  if (outcomes.empty()) return 0.0;
  return double(count_fast(outcomes, p)) / double(outcomes.size());
}

std::optional<double> fast_p_at_k(std::span<const std::vector<Outcome>> problems, int k, double p) {
  if (problems.empty() || k < 1) return std::nullopt;
  double sum = 0;
  for (const auto& samples : problems) {
    const int n = static_cast<int>(samples.size());
    if (n < k) return std::nullopt;
    const int c = static_cast<int>(count_fast(samples, p));
    // C(n-c, k) / C(n, k) as a product, exact enough for any n a study has.
    double none_fast = 1.0;
    for (int j = 0; j < k; ++j) none_fast *= n - c - j <= 0 ? 0.0 : double(n - c - j) / double(n - j);
    sum += 1.0 - none_fast;
  }
  return sum / double(problems.size());
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
