#pragma once
// Whether an environment variable holds one word: how the worker's comparison settings are read
// (KFORGE_WORKER_ARENA=ipc, KFORGE_WORKER_REFERENCE=inline, ...: each names the other way of doing
// something, for a benchmark that compares the two in one run).
#include <cstdlib>
#include <optional>
#include <string_view>

namespace kforge {

inline bool environment_says(const char* name, std::string_view word) {
  const char* value = std::getenv(name);
  return value && std::string_view(value) == word;
}

// The whole number an environment variable holds (as strtol reads it), where it lies in [low, high];
// else none: how a benchmark sets a count the worker otherwise chooses (KFORGE_WORKER_SPARE_COUNT,
// KFORGE_WORKER_PAIRS_PER_BATCH, KFORGE_WORKER_INPUT_LAYOUTS).
inline std::optional<long> environment_integer(const char* name, long low, long high) {
  const char* text = std::getenv(name);
  const long n = text ? std::strtol(text, nullptr, 10) : 0;
  if (!text || n < low || n > high) return std::nullopt;
  return n;
}

// The same for a real number (as strtod reads it): KFORGE_WORKER_BATCH_MEMORY_SHARE.
inline std::optional<double> environment_real(const char* name, double low, double high) {
  const char* text = std::getenv(name);
  const double x = text ? std::strtod(text, nullptr) : 0;
  if (!text || !(x >= low && x <= high)) return std::nullopt;
  return x;
}

}  // namespace kforge
