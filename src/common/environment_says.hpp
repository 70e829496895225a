#pragma once
// Whether an environment variable holds one word: how the worker's comparison settings are read
// (KFORGE_WORKER_ARENA=ipc, KFORGE_WORKER_REFERENCE=inline, ...: each names the other way of doing
// something, for a benchmark that compares the two in one run).
#include <cstdlib>
#include <string_view>

namespace kforge {

inline bool environment_says(const char* name, std::string_view word) {
  const char* value = std::getenv(name);
  return value && std::string_view(value) == word;
}

}  // namespace kforge
