#pragma once
// A bound on the host memory a candidate's whole process tree holds. The candidate's own
// process is read every look (its resident set, VmRSS); a process it forks holds memory that
// process's resident set never shows, and spread over children each smaller than the judge's own
// processes, a bomb would leave the machine's OOM killer, which takes the largest process, to
// take the judge (tests/adversarial/hang_memory_bomb_child_processes.py: four children of 768 MiB
// each, ended before forward returned, judged `correct` under a 2 GiB bound before the tree was
// counted). A descendant counts what is its own: anonymous and shared-memory pages (RssAnon +
// RssShmem), not the library files it maps as its parent does (a forked child's pages it has not
// written are still its parent's too, and count twice: an overcount of what it inherited, never
// an undercount).
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>

namespace kforge {

struct TreeMemory {
  int64_t bytes = 0;      // the root's resident set and its descendants' own pages
  int64_t processes = 0;  // the root and the descendants counted
};

// What `root`'s tree holds now; nothing where `root` cannot be read.
std::optional<TreeMemory> tree_resident_memory(pid_t root);

// The process's own resident memory (VmRSS) in bytes; nothing if it cannot be read.
std::optional<int64_t> resident_bytes(pid_t pid);

// The memory the machine could still give (MemAvailable of /proc/meminfo, one read), in bytes.
std::optional<int64_t> machine_available_bytes();

// A bound on the tree's memory, looked at every 20 ms for little: each look reads the root's
// resident set; the whole tree is counted once the machine has lost, since the last count, more
// available memory than the tree had room for (whoever took it), and at least every
// kLongestBetweenCounts.
class MemoryBound {
 public:
  static constexpr std::chrono::milliseconds kLongestBetweenCounts{200};
  MemoryBound(pid_t root, int64_t most) : root_(root), most_(most) {}
  // What the tree holds where it is past the bound; nothing while within it or where it cannot be read.
  std::optional<TreeMemory> past();

 private:
  pid_t root_;
  int64_t most_;
  std::optional<int64_t> count_below_;  // count the tree again once the machine has less available than this
  int64_t descendants_bytes_ = 0;       // what the descendants held at the last count
  std::chrono::steady_clock::time_point counted_{};
};

}  // namespace kforge
