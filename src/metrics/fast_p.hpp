#pragma once
// KernelBench's headline metrics over a set of evaluated candidates (REFERENCE.md section 4).
#include <optional>
#include <span>
#include <vector>

namespace kforge::metrics {

struct Outcome {
  bool correct = false;
  std::optional<double> speedup;  // only for correct candidates that were timed
};

// The thresholds upstream reports.
inline constexpr double kFastPThresholds[] = {0.0, 0.5, 0.8, 1.0, 1.5, 2.0};

// fast_p = #{correct and speedup > p} / N, N = every outcome (failures count as not fast).
// fast_0 is the correctness rate: a correct candidate counts even without a timing.
double fast_p(std::span<const Outcome> outcomes, double p);

// Geometric mean of the speedups of the correct, timed candidates; empty when there are none.
std::optional<double> geometric_mean_speedup(std::span<const Outcome> outcomes);

}  // namespace kforge::metrics
