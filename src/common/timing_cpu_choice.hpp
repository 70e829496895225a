#pragma once
// Which two CPUs the worker of a GPU times on, as a choice with no side effects: the worker pins
// its two processes' timing threads to them (worker/cpu_pin.hpp), and the orchestrator keeps its
// build processes off them (pool/build_cpus.hpp). One definition, so the two always agree.
#include <sched.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kforge {

// The CPUs of `set` in the order timing takes them: 1, 2, ... first, CPU 0 (where interrupts tend
// to land) last.
inline std::vector<int> cpus_in_timing_order(const cpu_set_t& set) {
  std::vector<int> out;
  for (int cpu = 1; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) out.push_back(cpu);
  if (CPU_ISSET(0, &set)) out.push_back(0);
  return out;
}

// The (reference, candidate) CPUs of the worker of GPU `gpu`: two of `ordered`, the GPUs' pairs
// side by side; nothing with fewer than two CPUs.
inline std::optional<std::pair<int, int>> timing_cpu_pair(const std::vector<int>& ordered, int gpu) {
  if (ordered.size() < 2 || gpu < 0) return std::nullopt;
  const size_t first = (2 * static_cast<size_t>(gpu)) % ordered.size();
  return std::pair{ordered[first], ordered[(first + 1) % ordered.size()]};
}

// KFORGE_WORKER_TIMING_CPUS=REF,CAND (`text`): the operator's choice (cores kept free with
// isolcpus, say), taken when both are CPUs of `allowed`; it holds for every worker.
inline std::optional<std::pair<int, int>> chosen_timing_cpus(const char* text, const cpu_set_t& allowed) {
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  long reference = std::strtol(text, &end, 10);
  if (end == text || *end != ',') return std::nullopt;
  const char* second = end + 1;
  long candidate = std::strtol(second, &end, 10);
  if (end == second || *end != '\0') return std::nullopt;
  auto usable = [&](long cpu) { return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed); };
  if (!usable(reference) || !usable(candidate)) return std::nullopt;
  return std::pair{static_cast<int>(reference), static_cast<int>(candidate)};
}

// The GPU index a worker's CUDA_VISIBLE_DEVICES names ("1"), or a worker label names ("cuda:1");
// a UUID or anything else counts as the first.
inline int gpu_index_of(std::string_view visible) {
  if (visible.starts_with("cuda:")) visible.remove_prefix(5);
  const std::string text(visible);
  char* end = nullptr;
  long index = std::strtol(text.c_str(), &end, 10);
  return end != text.c_str() && index >= 0 ? static_cast<int>(index) : 0;
}

}  // namespace kforge
