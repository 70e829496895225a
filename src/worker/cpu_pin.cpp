#include "worker/cpu_pin.hpp"

#include <cstdlib>

#include "common/timing_cpu_choice.hpp"

namespace kforge::worker {

std::optional<TimingCpus> timing_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return std::nullopt;
  auto pair = chosen_timing_cpus(std::getenv("KFORGE_WORKER_TIMING_CPUS"), set);
  if (!pair) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    pair = timing_cpu_pair(cpus_in_timing_order(set), gpu_index_of(visible ? visible : ""));
  }
  if (!pair) return std::nullopt;
  return TimingCpus{pair->first, pair->second};
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
