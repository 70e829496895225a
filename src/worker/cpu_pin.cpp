#include "worker/cpu_pin.hpp"

#include <cstdlib>
#include <string>
#include <vector>

namespace kforge::worker {

namespace {

// KFORGE_WORKER_TIMING_CPUS=REF,CAND: the operator's choice (cores kept free with isolcpus, say),
// taken when both are CPUs this process may use.
std::optional<TimingCpus> chosen_cpus(const cpu_set_t& allowed) {
  const char* text = std::getenv("KFORGE_WORKER_TIMING_CPUS");
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  long reference = std::strtol(text, &end, 10);
  if (end == text || *end != ',') return std::nullopt;
  const char* second = end + 1;
  long candidate = std::strtol(second, &end, 10);
  if (end == second || *end != '\0') return std::nullopt;
  auto usable = [&](long cpu) { return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed); };
  if (!usable(reference) || !usable(candidate)) return std::nullopt;
  return TimingCpus{static_cast<int>(reference), static_cast<int>(candidate)};
}

}  // namespace

std::optional<TimingCpus> timing_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return std::nullopt;
  if (auto chosen = chosen_cpus(set)) return chosen;
  std::vector<int> allowed;
  for (int cpu = 1; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) allowed.push_back(cpu);
  if (CPU_ISSET(0, &set)) allowed.push_back(0);
  if (allowed.size() < 2) return std::nullopt;
  // The first GPU this worker sees, when it is named by index (a UUID counts as the first).
  int gpu = 0;
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
    char* end = nullptr;
    long index = std::strtol(visible, &end, 10);
    if (end != visible && index >= 0) gpu = static_cast<int>(index);
  }
  const size_t first = (2 * static_cast<size_t>(gpu)) % allowed.size();
  return TimingCpus{allowed[first], allowed[(first + 1) % allowed.size()]};
}

PinnedThread::PinnedThread(std::optional<int> cpu) {
  if (!cpu || *cpu < 0 || *cpu >= CPU_SETSIZE) return;
  if (::sched_getaffinity(0, sizeof previous_, &previous_) != 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(*cpu, &one);
  pinned_ = ::sched_setaffinity(0, sizeof one, &one) == 0;
}

PinnedThread::~PinnedThread() {
  if (pinned_) ::sched_setaffinity(0, sizeof previous_, &previous_);
}

}  // namespace kforge::worker
