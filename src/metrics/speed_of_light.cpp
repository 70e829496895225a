#include "metrics/speed_of_light.hpp"

namespace kforge::stats {

std::optional<double> memory_floor_ms(int64_t bytes, double copy_bytes_per_s) {
  if (bytes <= 0 || !(copy_bytes_per_s > 0)) return std::nullopt;
  return 1e3 * static_cast<double>(bytes) / (kCopyRateMargin * copy_bytes_per_s);
}

}  // namespace kforge::stats
