#pragma once
// Bounds what a worker takes from the machine while it runs a job: host memory, CPU and, for a
// candidate's process, the disk its scratch folder fills. A thread of kforge reads /proc (and the
// folder's filesystem) every 20 ms and, past a bound, kills the watched process group.
//  - Host memory: the CUDA driver reserves terabytes of address space, so an address-space limit
//    (RLIMIT_AS) cannot tell a memory bomb from a working GPU process; what a bomb grows is
//    resident memory (VmRSS), and for a candidate that of every process it started as well
//    (pool/tree_memory.hpp).
//  - CPU: a job may keep busy at most its share of the machine's cores, averaged over a window
//    (a candidate's process with the processes it started, pool/tree_cpu.hpp).
//    A CPU-time limit (RLIMIT_CPU) counts the worker's whole life, not one job, and a candidate
//    that starts threads on every core slows the other workers' timings long before the wall
//    deadline; what matters is the rate, so that is what is bounded.
//  - Tasks: the threads of every process in the watched tree, since the machine's task table is
//    shared (pool/task_count.hpp).
//  - Disk: what a folder holds (pool/disk_usage.hpp): a folder's size, not one file's
//    (RLIMIT_FSIZE, set beside it where the process starts), since a process may write many.
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "pool/disk_usage.hpp"
#include "pool/task_count.hpp"
#include "pool/tree_cpu.hpp"
#include "pool/tree_memory.hpp"

namespace kforge {

// The CPU time (user + system, all its threads) the process has used, in seconds, from
// /proc/PID/stat; nothing if it cannot be read.
std::optional<double> cpu_seconds(pid_t pid);

// [cores] What a candidate's tree may keep busy beyond its CPU share (its own process is held to
// the share itself): a compiler it runs and waits for (torch.compile's g++ on the CPU) takes a
// whole core while the candidate's own process still ticks, and an honest torch.compile candidate
// measured 1.0-1.1 cores over 3 s under a share of 1.0 (tests/legit/add_relu_torch_compile.py,
// session 46), where its own process alone was far below.
inline constexpr double kTreeCpuAllowance = 0.25;

struct ResourceBounds {
  int64_t host_memory_bytes = 0;  // resident; 0: unbounded
  double cpu_cores = 0;           // cores kept busy on average over `cpu_window`; 0: unbounded
  std::chrono::milliseconds cpu_window{3000};
  int64_t folder_bytes = 0;  // what `folder` may hold on disk (DiskUsage::bytes); 0: unbounded
  std::string folder;
  std::string folder_bound_source = "--scratch-disk";  // what set folder_bytes, named where it trips
  int64_t most_tasks = 0;  // threads of every process in the watched tree (pool/task_count.hpp); 0: unbounded
  // host_memory_bytes and cpu_cores bound the watched process and every process it started
  // (pool/tree_memory.hpp, pool/tree_cpu.hpp): a candidate's. A worker's bounds are its own
  // process's: its tree holds the candidates' processes, each watched on its own.
  bool whole_tree = false;
};

class ResourceWatch {
 public:
  enum class Tripped { none, host_memory, cpu, folder, tasks };

  // Watches `pid` (the leader of the worker's process group) until destroyed.
  ResourceWatch(pid_t pid, const ResourceBounds& bounds);
  ~ResourceWatch();
  ResourceWatch(const ResourceWatch&) = delete;
  ResourceWatch& operator=(const ResourceWatch&) = delete;

  // The folder's bound looked at once more, walking it now: a job's last look, so a folder that
  // passed its bound since the watch's last walk (it walks at least every 500 ms) is not missed
  // by a job that ended first. Trips the watch (and kills the group) as its own looks do.
  void look_at_folder_now();

  Tripped tripped() const { return tripped_; }
  // What passed which bound, for a message that names whose it was ("the candidate's " + this):
  // "resident host memory reached 2.01 GiB, past the bound of 2.00 GiB (--host-memory)". Empty
  // while nothing tripped.
  std::string what_passed() const;
  int64_t seen_bytes() const { return seen_bytes_; }  // the resident size that tripped it
  double seen_cores() const { return seen_cores_; }   // the average busy cores that tripped it
  // What the folder held when it tripped: bytes, or nothing read past a nesting too deep to count.
  int64_t seen_folder_bytes() const { return seen_folder_bytes_; }
  bool seen_folder_too_deep() const { return seen_folder_too_deep_; }
  int64_t seen_tasks() const { return seen_tasks_; }  // the tree's task count that tripped it

 private:
  // Records `why` (unless another bound tripped first) and kills the watched group.
  void trip(Tripped why);
  // The folder's bound passed with `usage`: recorded and tripped. Under mutex_.
  void trip_on_folder(const DiskUsage& usage);

  pid_t pid_ = -1;
  ResourceBounds bounds_;
  std::optional<FolderBound> folder_;  // the folder's bound, where there is one; under mutex_
  std::atomic<Tripped> tripped_{Tripped::none};
  std::atomic<int64_t> seen_bytes_{0};
  std::atomic<int64_t> seen_processes_{1};  // how many processes seen_bytes_ was summed over
  std::atomic<bool> cpu_of_tree_{false};     // the CPU bound tripped on the whole tree, not the process alone
  std::atomic<double> seen_cores_{0};
  std::atomic<int64_t> seen_folder_bytes_{0};
  std::atomic<bool> seen_folder_too_deep_{false};
  std::atomic<int64_t> seen_tasks_{0};
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace kforge
