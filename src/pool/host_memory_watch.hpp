#pragma once
// Bounds a worker's host memory while it runs a job. The CUDA driver reserves terabytes of
// address space, so an address-space limit (RLIMIT_AS) cannot tell a memory bomb from a working
// GPU process; what a bomb grows is resident memory. A thread of kforge reads the worker's
// resident set (VmRSS) every 20 ms and, past the bound, kills the worker's process group.
#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>

namespace kforge {

// The worker's resident memory in bytes, from /proc/PID/status; nothing if it cannot be read.
std::optional<int64_t> resident_bytes(pid_t pid);

class HostMemoryWatch {
 public:
  // Watches `pid` (the leader of the worker's process group) until destroyed; a bound of 0
  // watches nothing.
  HostMemoryWatch(pid_t pid, int64_t bound_bytes);
  ~HostMemoryWatch();
  HostMemoryWatch(const HostMemoryWatch&) = delete;
  HostMemoryWatch& operator=(const HostMemoryWatch&) = delete;

  bool tripped() const { return tripped_; }
  int64_t seen_bytes() const { return seen_; }  // the resident size that tripped it

 private:
  std::atomic<bool> tripped_{false};
  std::atomic<int64_t> seen_{0};
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace kforge
