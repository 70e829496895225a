#pragma once
// The CPU time a candidate's whole process tree has used, for its CPU-share bound
// (pool/resource_watch.hpp): a candidate's process that forks children to spin keeps cores busy
// that its own process's times never show (tests/adversarial/hang_cpu_in_child_processes.py:
// two children spinning through each forward, reaped before it returned, within the share before
// the tree was counted). Each process counts its own time (user and system) and that of the
// children it has reaped (cutime and cstime), so a process is counted once: by itself while it is
// there, by its reaper after.
#include <sys/types.h>

#include <chrono>
#include <optional>

namespace kforge {

struct ProcessCpu {
  double own = 0;     // [s] user and system time of its threads
  double reaped = 0;  // [s] of the children it has waited for (and theirs)
};

// A process's CPU times from /proc/PID/stat; nothing if it cannot be read.
std::optional<ProcessCpu> process_cpu(pid_t pid);

// The tree's CPU time, looked at every 20 ms for little: the root's every look, its descendants'
// (a walk of the tree) at least every kLongestBetweenWalks and whenever the root has reaped a
// child since the last walk (whose time then moves into the root's: counted twice until a walk).
struct TreeCpuTime {
  double root = 0;  // [s] the root's own threads' (the bound on the root alone, as before the tree)
  double tree = 0;  // [s] the root's, what it reaped, and every descendant's
};

class TreeCpu {
 public:
  static constexpr std::chrono::milliseconds kLongestBetweenWalks{200};
  explicit TreeCpu(pid_t root) : root_(root) {}
  // Nothing where the root cannot be read.
  std::optional<TreeCpuTime> seconds();

 private:
  pid_t root_;
  double descendants_ = 0;   // at the last walk
  double root_reaped_ = -1;  // the root's reaped time at the last walk
  std::chrono::steady_clock::time_point walked_{};
};

}  // namespace kforge
