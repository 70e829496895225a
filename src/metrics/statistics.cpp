#include "metrics/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kforge::stats {
namespace {

// splitmix64: a small, well-mixed generator; the bootstrap needs reproducibility, not crypto.
struct SplitMix {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

double median_in_place(std::vector<double>& v) {
  size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  double lower = *std::max_element(v.begin(), v.begin() + mid);
  return 0.5 * (lower + upper);
}

}  // namespace

double median(std::span<const double> samples) {
  if (samples.empty()) throw std::invalid_argument("median of no samples");
  std::vector<double> v(samples.begin(), samples.end());
  return median_in_place(v);
}

double quantile(std::span<const double> samples, double q) {
  if (samples.empty()) throw std::invalid_argument("quantile of no samples");
  std::vector<double> v(samples.begin(), samples.end());
  std::sort(v.begin(), v.end());
  double pos = std::clamp(q, 0.0, 1.0) * double(v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

size_t bootstrap_block_length(size_t n) {
  return std::max<size_t>(1, static_cast<size_t>(std::lround(std::cbrt(static_cast<double>(n)))));
}

std::optional<SpeedupEstimate> paired_speedup(std::span<const double> reference_ms,
                                              std::span<const double> candidate_ms, int resamples,
                                              uint64_t seed) {
  size_t n = std::min(reference_ms.size(), candidate_ms.size());
  return paired_speedup_blocks(reference_ms, candidate_ms, bootstrap_block_length(n), resamples, seed);
}

std::optional<SpeedupEstimate> paired_speedup_blocks(std::span<const double> reference_ms,
                                                     std::span<const double> candidate_ms, size_t block,
                                                     int resamples, uint64_t seed) {
  size_t n = std::min(reference_ms.size(), candidate_ms.size());
  if (n == 0) return std::nullopt;
  for (size_t i = 0; i < n; ++i)
    if (!(reference_ms[i] > 0) || !(candidate_ms[i] > 0)) return std::nullopt;

  std::vector<double> pair_ratio(n);
  for (size_t i = 0; i < n; ++i) pair_ratio[i] = reference_ms[i] / candidate_ms[i];
  SpeedupEstimate est;
  est.speedup = median(pair_ratio);

  SplitMix rng{seed};
  std::vector<double> medians;
  medians.reserve(static_cast<size_t>(resamples));
  std::vector<double> resample(n);
  block = std::clamp<size_t>(block, 1, n);
  for (int b = 0; b < resamples; ++b) {
    // Blocks of `block` consecutive pairs from random starts, wrapping around the end.
    for (size_t i = 0; i < n;) {
      size_t start = rng.next() % n;
      for (size_t k = 0; k < block && i < n; ++k, ++i) resample[i] = pair_ratio[(start + k) % n];
    }
    medians.push_back(median_in_place(resample));
  }
  est.ci95 = {quantile(medians, 0.025), quantile(medians, 0.975)};
  return est;
}

Interval with_systematic_allowance(Interval sampling, double allowance) {
  return {sampling.low * (1.0 - allowance), sampling.high * (1.0 + allowance)};
}

std::optional<double> reference_processes_apart(std::span<const double> reference_ms, std::span<const double> candidate_ms,
                                                std::span<const int> process) {
  if (reference_ms.size() != candidate_ms.size() || reference_ms.size() != process.size()) return std::nullopt;
  std::vector<double> ratios[2];
  for (size_t i = 0; i < process.size(); ++i) {
    if (!(reference_ms[i] > 0) || !(candidate_ms[i] > 0) || process[i] < 0 || process[i] > 1) return std::nullopt;
    ratios[process[i]].push_back(reference_ms[i] / candidate_ms[i]);
  }
  if (ratios[0].size() < kFewestPairsPerProcess || ratios[1].size() < kFewestPairsPerProcess) return std::nullopt;
  return std::abs(median(ratios[1]) / median(ratios[0]) - 1.0);
}

std::optional<double> reference_processes_apart_alone(std::span<const double> reference_ms, std::span<const int> process) {
  const std::vector<double> unit(reference_ms.size(), 1.0);  // each reference time against 1: the time itself
  return reference_processes_apart(reference_ms, unit, process);
}

double process_allowance(std::optional<double> apart, const SpeedupEstimate& estimate) {
  if (!apart) return kSystematicAllowance;
  return std::max(kSystematicAllowance, *apart - estimate.rel_half_width());
}

bool processes_drew_apart(std::optional<double> apart, const SpeedupEstimate& estimate) {
  return process_allowance(apart, estimate) > kSystematicAllowance;
}

}  // namespace kforge::stats
