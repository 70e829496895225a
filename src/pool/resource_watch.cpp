#include "pool/resource_watch.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <deque>
#include <string>
#include <utility>

namespace kforge {

std::optional<double> cpu_seconds(pid_t pid) {
  if (std::optional<ProcessCpu> cpu = process_cpu(pid)) return cpu->own;
  return std::nullopt;
}

ResourceWatch::ResourceWatch(pid_t pid, const ResourceBounds& bounds) : pid_(pid), bounds_(bounds) {
  if (pid > 0 && bounds.folder_bytes > 0 && !bounds.folder.empty()) folder_.emplace(bounds.folder, bounds.folder_bytes);
  if (pid <= 0 || (bounds.host_memory_bytes <= 0 && bounds.cpu_cores <= 0 && !folder_ && bounds.most_tasks <= 0)) return;
  thread_ = std::thread([this] {
    using Clock = std::chrono::steady_clock;
    struct CpuSample {
      Clock::time_point when;
      double root = 0;  // [s] used by then: the watched process's own threads
      double tree = 0;  // [s] and with every process it started (the root's alone where whole_tree is off)
    };
    std::deque<CpuSample> cpu;
    std::optional<TaskBound> tasks;
    if (bounds_.most_tasks > 0) tasks.emplace(pid_, bounds_.most_tasks);
    std::optional<TreeCpu> tree_cpu;
    if (bounds_.whole_tree) tree_cpu.emplace(pid_);
    std::optional<MemoryBound> tree_memory;
    if (bounds_.host_memory_bytes > 0 && bounds_.whole_tree) tree_memory.emplace(pid_, bounds_.host_memory_bytes);
    std::unique_lock lock(mutex_);
    while (!stop_cv_.wait_for(lock, std::chrono::milliseconds(20), [this] { return stop_; })) {
      if (tree_memory) {
        if (std::optional<TreeMemory> held = tree_memory->past()) {
          seen_bytes_ = held->bytes;
          seen_processes_ = held->processes;
          return trip(Tripped::host_memory);
        }
      } else if (bounds_.host_memory_bytes > 0) {
        if (auto rss = resident_bytes(pid_); rss && *rss > bounds_.host_memory_bytes) {
          seen_bytes_ = *rss;
          return trip(Tripped::host_memory);
        }
      }
      if (folder_)
        if (std::optional<DiskUsage> usage = folder_->past()) return trip_on_folder(*usage);
      if (tasks)
        if (std::optional<int64_t> count = tasks->past()) {
          seen_tasks_ = *count;
          return trip(Tripped::tasks);
        }
      if (bounds_.cpu_cores <= 0) continue;
      std::optional<TreeCpuTime> used;
      if (tree_cpu) used = tree_cpu->seconds();
      else if (std::optional<double> own = cpu_seconds(pid_)) used = TreeCpuTime{*own, *own};
      if (!used) continue;
      auto now = Clock::now();
      cpu.push_back({now, used->root, used->tree});
      // Judge only a full window: the first samples of a job say little about a rate.
      while (cpu.size() > 2 && now - cpu[1].when >= bounds_.cpu_window) cpu.pop_front();
      const double span = std::chrono::duration<double>(now - cpu.front().when).count();
      if (span + 0.001 < std::chrono::duration<double>(bounds_.cpu_window).count()) continue;
      // The process alone is held to its share; with what it started, to its share and the
      // allowance for a compiler it waits on (kTreeCpuAllowance).
      const double own = (cpu.back().root - cpu.front().root) / span;
      const double all = (cpu.back().tree - cpu.front().tree) / span;
      if (own > bounds_.cpu_cores) {
        seen_cores_ = own;
        return trip(Tripped::cpu);
      }
      if (tree_cpu && all > bounds_.cpu_cores + kTreeCpuAllowance) {
        seen_cores_ = all;
        cpu_of_tree_ = true;
        return trip(Tripped::cpu);
      }
    }
  });
}

void ResourceWatch::trip(Tripped why) {
  Tripped none = Tripped::none;
  if (!tripped_.compare_exchange_strong(none, why)) return;  // the first bound passed is the one told
  ::kill(-pid_, SIGKILL);  // the group: the worker and whatever it started
  ::kill(pid_, SIGKILL);
}

void ResourceWatch::trip_on_folder(const DiskUsage& usage) {
  if (tripped_ != Tripped::none) return;
  seen_folder_bytes_ = usage.bytes;
  seen_folder_too_deep_ = usage.too_deep;
  trip(Tripped::folder);
}

std::string ResourceWatch::what_passed() const {
  constexpr double kGiB = double(int64_t{1} << 30);
  char text[320];
  switch (tripped_.load()) {
    case Tripped::none: return "";
    case Tripped::host_memory:
      if (seen_processes_ > 1)
        std::snprintf(text, sizeof text,
                      "resident host memory reached %.2f GiB over %lld processes (it and those it started), past the "
                      "bound of %.2f GiB (--host-memory)",
                      seen_bytes_ / kGiB, static_cast<long long>(seen_processes_.load()), bounds_.host_memory_bytes / kGiB);
      else
        std::snprintf(text, sizeof text, "resident host memory reached %.2f GiB, past the bound of %.2f GiB (--host-memory)",
                      seen_bytes_ / kGiB, bounds_.host_memory_bytes / kGiB);
      break;
    case Tripped::cpu:
      if (cpu_of_tree_)
        std::snprintf(text, sizeof text,
                      "process and those it started kept %.1f CPU cores busy over %g s, more than its share of %.1f "
                      "(--cpu-share) and the %.2f of a core allowed beside it",
                      seen_cores_.load(), std::chrono::duration<double>(bounds_.cpu_window).count(), bounds_.cpu_cores,
                      kTreeCpuAllowance);
      else
        std::snprintf(text, sizeof text, "process kept %.1f CPU cores busy over %g s, more than its share of %.1f (--cpu-share)",
                      seen_cores_.load(), std::chrono::duration<double>(bounds_.cpu_window).count(), bounds_.cpu_cores);
      break;
    case Tripped::folder:
      if (seen_folder_too_deep_)
        std::snprintf(text, sizeof text,
                      "scratch folder nested folders more than %d deep, too deep to count what it holds against its "
                      "bound of %.2f GiB (%s)",
                      DiskUsage::kDeepestFolder, bounds_.folder_bytes / kGiB, bounds_.folder_bound_source.c_str());
      else
        std::snprintf(text, sizeof text, "scratch folder held %.2f GiB on disk, past the bound of %.2f GiB (%s)",
                      seen_folder_bytes_ / kGiB, bounds_.folder_bytes / kGiB, bounds_.folder_bound_source.c_str());
      break;
    case Tripped::tasks:
      std::snprintf(text, sizeof text,
                    "processes held %lld threads or more, past the bound of %lld (the machine's task table is every "
                    "worker's)",
                    static_cast<long long>(seen_tasks_.load()), static_cast<long long>(bounds_.most_tasks));
      break;
  }
  return text;
}

void ResourceWatch::look_at_folder_now() {
  std::lock_guard lock(mutex_);
  if (!folder_) return;
  if (std::optional<DiskUsage> usage = folder_->past_now()) trip_on_folder(*usage);
}

ResourceWatch::~ResourceWatch() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
}

}  // namespace kforge
