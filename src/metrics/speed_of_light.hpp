#pragma once
// The memory speed of light: no kernel computes a result faster than the device can read its
// inputs and write its outputs once. A measured time below that floor means the timer did not
// see all of the candidate's work (a hole in the measurement, not a fast kernel), and the
// candidate is rejected with rule `speed-of-light` (REFERENCE.md sections 4 and 8).
#include <cstdint>
#include <optional>

namespace kforge::stats {

// The device's peak is above its measured copy rate (a device-to-device copy reaches about 85%
// of the HBM peak on an H200): the floor is taken at this many times the measured rate, so an
// honest kernel at the true peak stays above it.
constexpr double kCopyRateMargin = 1.25;

// The floor in ms for moving `bytes` (inputs read once, outputs written once) at
// kCopyRateMargin x `copy_bytes_per_s`; nothing when either is unknown (0), as on a CPU.
std::optional<double> memory_floor_ms(int64_t bytes, double copy_bytes_per_s);

}  // namespace kforge::stats
