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

// fast_p@k over problems, given each problem's samples: for a problem with n samples of which c
// are fast (correct, and faster than p x the reference; p = 0: correct), the chance that at least
// one of k samples drawn without replacement from its n is fast, 1 - C(n-c, k) / C(n, k) (the
// unbiased estimator of Chen et al. 2021, pass@k at p = 0), averaged over the problems. At k = 1
// it is the share of fast samples, problem by problem. Nothing when there are no problems or one
// has fewer than k samples.
std::optional<double> fast_p_at_k(std::span<const std::vector<Outcome>> problems, int k, double p);

// Geometric mean of the speedups of the correct, timed candidates; empty when there are none.
std::optional<double> geometric_mean_speedup(std::span<const Outcome> outcomes);

}  // namespace kforge::metrics
