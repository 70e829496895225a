#pragma once
// A bound on the tasks (threads, of every process) in a candidate's process tree, looked at often
// for little: the machine's task table is shared (32,768 entries on the development machine,
// `kernel.pid_max`), and a candidate that filled it with threads or processes left kforge, its
// compilers and every other worker unable to start one, so their candidates' verdicts were the
// bomb's. The thread and process checks run at the ends of calls; this runs beside them.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>

namespace kforge {

// Tasks in the tree under `root` (its threads, its descendants' threads), following each thread's
// children list (/proc/PID/task/TID/children): counted until past `most`, then no further.
// Nothing where `root` cannot be read.
std::optional<int64_t> tree_task_count(pid_t root, int64_t most);

// The machine's tasks, from /proc/loadavg (one read).
std::optional<int64_t> machine_task_count();

// The bound an honest candidate stays far below: its interpreter, torch's two thread pools of one
// thread a core each, the CUDA driver's and a few libraries' threads.
int64_t most_candidate_tasks();

// A bound on the tree's tasks. Most looks read the machine's count only; the tree is counted once
// the machine has gained, since the last count, more tasks than the tree had room for (whoever
// started them), and at least every kLongestBetweenCounts.
class TaskBound {
 public:
  static constexpr std::chrono::milliseconds kLongestBetweenCounts{500};
  TaskBound(pid_t root, int64_t most) : root_(root), most_(most) {}
  // The tree's count where it is past the bound; nothing while within it or where it cannot be read.
  std::optional<int64_t> past();
  int64_t bound() const { return most_; }

 private:
  pid_t root_;
  int64_t most_;
  std::optional<int64_t> count_above_;  // count the tree again once the machine has more tasks than this
  std::chrono::steady_clock::time_point counted_{};
};

}  // namespace kforge
