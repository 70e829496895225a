#include "metrics/speed_of_light.hpp"

#include <algorithm>

namespace kforge::stats {

std::optional<double> memory_floor_ms(int64_t bytes, double copy_bytes_per_s) {
  if (bytes <= 0 || !(copy_bytes_per_s > 0)) return std::nullopt;
  return 1e3 * static_cast<double>(bytes) / (kCopyRateMargin * copy_bytes_per_s);
}

std::optional<double> compute_floor_ms(int64_t flops, int sm_count, double max_sm_mhz) {
  if (flops <= 0 || sm_count <= 0 || !(max_sm_mhz > 0)) return std::nullopt;
  const double peak_flops_per_s = sm_count * max_sm_mhz * 1e6 * kTensorFlopsPerSmClock;
  return 1e3 * static_cast<double>(flops) / kAlgorithmicSaving / peak_flops_per_s;
}

std::optional<Floor> rejection_floor(std::optional<double> memory_ms, std::optional<double> compute_ms) {
  if (!memory_ms && !compute_ms) return std::nullopt;
  if (compute_ms && (!memory_ms || *compute_ms > *memory_ms)) return Floor{*compute_ms, true};
  return Floor{*memory_ms, false};
}

std::optional<SpeedOfLight> speed_of_light(int64_t flops, int64_t bytes, double flops_per_s, double copy_bytes_per_s,
                                           int64_t fast_flops, double fast_flops_per_s) {
  if (flops_per_s <= 0 || copy_bytes_per_s <= 0 || flops < 0 || bytes < 0) return std::nullopt;
  if (fast_flops_per_s <= 0) fast_flops = 0;
  fast_flops = std::clamp<int64_t>(fast_flops, 0, flops);
  const double compute_ms = 1e3 * (static_cast<double>(flops - fast_flops) / flops_per_s +
                                   (fast_flops ? static_cast<double>(fast_flops) / fast_flops_per_s : 0.0));
  const double memory_ms = 1e3 * static_cast<double>(bytes) / copy_bytes_per_s;
  return SpeedOfLight{std::max(compute_ms, memory_ms), compute_ms > memory_ms};
}

}  // namespace kforge::stats
