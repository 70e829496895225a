#pragma once
// The jobs of a plan as the workers take them (planner/executor.hpp): a job may run once it waits
// for no build or its build is done; a worker takes the earliest such job not yet taken. Shared by
// the workers' threads and the thread that runs the builds.
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace kforge {

class JobQueue {
 public:
  // `count` jobs; `waits_for_build(i)`: job i may run only once mark_ready(i) is called.
  JobQueue(size_t count, const std::function<bool(size_t)>& waits_for_build);

  // The earliest ready job not yet taken, waiting for one to become ready; nothing once every job
  // is taken, or once the builds failed (close(false)).
  std::optional<size_t> take();
  // The job take() would return next if called now: the earliest ready one not yet taken, else the
  // earliest not yet taken (its build may be the first done); nothing once every job is taken. A
  // guess where several workers take from the queue: another may take it first.
  std::optional<size_t> next_to_take();
  // Job i's build is done.
  void mark_ready(size_t i);
  // The builds are over: every job may run (`builds_ok`), or none more is taken (they failed).
  void close(bool builds_ok);

 private:
  // The earliest job not yet taken (and ready, where `ready_only`); called with mutex_ held.
  std::optional<size_t> earliest_untaken(bool ready_only) const;

  std::mutex mutex_;
  std::condition_variable became_ready_;
  std::vector<char> ready_, taken_;
  size_t untaken_;
  bool builds_ok_ = true;
};

}  // namespace kforge
