#pragma once
// Fixed CPUs for the two sides of a timed pair on the GPU. Much of a forward's cost there can be
// the host's: Python and the launches queue every kernel (a ResNet18 queues for 4 ms what the GPU
// runs in less). Left to the scheduler, the reference's and the candidate's processes moved
// between cores from call to call, and such problems' identity speedups drifted by up to 5% from
// run to run on the H200 (0.946 in one run, 1.003 in the next). Each side gets a core of its own,
// the same for every call: one core for both would keep the reference process waiting for the
// candidate's to give its core up after answering, time its clock around the request counts.
#include <optional>

#include <sched.h>

namespace kforge::worker {

// The two CPUs a worker times on (the reference process's, the candidate process's): two of those
// it may use, chosen by its GPU (CUDA_VISIBLE_DEVICES) so the workers of several GPUs time on
// different cores; CPU 0, where interrupts tend to land, last. nullopt with fewer than two.
// KFORGE_WORKER_TIMING_CPUS=REF,CAND names them instead, when both may be used.
struct TimingCpus {
  int reference;
  int candidate;
};
std::optional<TimingCpus> timing_cpus();

// Pins the calling thread to `cpu` (nothing when nullopt or refused) and restores the thread's
// previous CPUs when it goes.
class PinnedThread {
 public:
  explicit PinnedThread(std::optional<int> cpu);
  ~PinnedThread();
  PinnedThread(const PinnedThread&) = delete;
  PinnedThread& operator=(const PinnedThread&) = delete;

 private:
  cpu_set_t previous_{};
  bool pinned_ = false;
};

}  // namespace kforge::worker
