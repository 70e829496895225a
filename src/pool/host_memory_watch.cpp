#include "pool/host_memory_watch.hpp"

#include <signal.h>

#include <chrono>
#include <fstream>
#include <string>

namespace kforge {

std::optional<int64_t> resident_bytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("VmRSS:")) return std::stoll(line.substr(6)) * 1024;  // "VmRSS:  123456 kB"
  return std::nullopt;
}

HostMemoryWatch::HostMemoryWatch(pid_t pid, int64_t bound_bytes) {
  if (pid <= 0 || bound_bytes <= 0) return;
  thread_ = std::thread([this, pid, bound_bytes] {
    std::unique_lock lock(mutex_);
    while (!stop_cv_.wait_for(lock, std::chrono::milliseconds(20), [this] { return stop_; })) {
      auto rss = resident_bytes(pid);
      if (!rss || *rss <= bound_bytes) continue;
      seen_ = *rss;
      tripped_ = true;
      ::kill(-pid, SIGKILL);  // the group: the worker and whatever it started
      ::kill(pid, SIGKILL);
      return;
    }
  });
}

HostMemoryWatch::~HostMemoryWatch() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
}

}  // namespace kforge
