#include "pool/build_cpus.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/timing_cpu_choice.hpp"

namespace kforge {

std::vector<int> build_cpus(const std::vector<int>& ordered, const std::vector<int>& gpus,
                            const std::vector<int>& timing_override) {
  std::vector<int> reserved = timing_override;
  if (reserved.empty())
    for (int gpu : gpus)
      if (auto pair = timing_cpu_pair(ordered, gpu)) reserved.insert(reserved.end(), {pair->first, pair->second});
  std::vector<int> left;
  for (int cpu : ordered)
    if (std::find(reserved.begin(), reserved.end(), cpu) == reserved.end()) left.push_back(cpu);
  if (left.size() < 2) return {};
  return left;
}

BuildsOffTimingCpus::BuildsOffTimingCpus(const std::vector<std::string>& worker_devices, bool cuda) {
  if (!cuda || worker_devices.empty()) return;
  if (::sched_getaffinity(0, sizeof previous_, &previous_) != 0) return;
  std::vector<int> gpus, timing_override;
  for (const auto& device : worker_devices) gpus.push_back(gpu_index_of(device));
  if (auto chosen = chosen_timing_cpus(std::getenv("KFORGE_WORKER_TIMING_CPUS"), previous_))
    timing_override = {chosen->first, chosen->second};
  std::vector<int> cpus = build_cpus(cpus_in_timing_order(previous_), gpus, timing_override);
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  set_ = ::sched_setaffinity(0, sizeof set, &set) == 0;
}

BuildsOffTimingCpus::~BuildsOffTimingCpus() {
  if (set_) ::sched_setaffinity(0, sizeof previous_, &previous_);
}

}  // namespace kforge
