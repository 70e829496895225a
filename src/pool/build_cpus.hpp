#pragma once
// Builds kept off the CPUs the GPU workers time on. The load_inline prebuild and the native builds
// run beside evaluations (each candidate is evaluated once its own build is done), with as many
// compilers as there are cores; a compiler on a worker's timing CPU (worker/cpu_pin.hpp) preempts
// the host side of a timed call, which the pinning exists to keep steady.
#include <sched.h>

#include <string>
#include <vector>

namespace kforge {

// The CPUs builds may use: `ordered` (common/timing_cpu_choice.hpp's order) less each worker's
// timing pair (`timing_override`, KFORGE_WORKER_TIMING_CPUS's pair, for every worker when given).
// Empty when fewer than two would be left: then builds keep every CPU.
std::vector<int> build_cpus(const std::vector<int>& ordered, const std::vector<int>& gpus,
                            const std::vector<int>& timing_override = {});

// For its lifetime, the calling thread (and so every process and thread it starts) runs on
// build_cpus() of the GPU workers `worker_devices` (CUDA_VISIBLE_DEVICES ids, or labels
// "cuda:N"); nothing for CPU workers.
class BuildsOffTimingCpus {
 public:
  BuildsOffTimingCpus(const std::vector<std::string>& worker_devices, bool cuda);
  ~BuildsOffTimingCpus();
  BuildsOffTimingCpus(const BuildsOffTimingCpus&) = delete;
  BuildsOffTimingCpus& operator=(const BuildsOffTimingCpus&) = delete;

 private:
  cpu_set_t previous_{};
  bool set_ = false;
};

}  // namespace kforge
