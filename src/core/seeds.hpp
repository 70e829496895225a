#pragma once
// kforge's seeds (the job's trial seeds and every seed derived from them) keep to 53 bits, the
// integers a double holds exactly, so every reader of the protocol's JSON, a double-based one
// included, sees the same seed.
#include <cstdint>

namespace kforge {

inline constexpr uint64_t kSeedMask = (uint64_t{1} << 53) - 1;

inline constexpr uint64_t seed_bits(uint64_t value) { return value & kSeedMask; }

}  // namespace kforge
