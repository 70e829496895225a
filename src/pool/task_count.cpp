#include "pool/task_count.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "common/proc_text.hpp"
#include "pool/process_tree.hpp"

namespace kforge {

std::optional<int64_t> tree_task_count(pid_t root, int64_t most) {
  int64_t tasks = 0;
  const bool root_read = walk_process_tree(root, [&](pid_t, int64_t threads) {
    tasks += threads;
    return tasks <= most;
  });
  if (!root_read) return std::nullopt;
  return tasks;
}

std::optional<int64_t> machine_task_count() {
  // "0.42 2.05 2.51 1/86 19012": runnable/total tasks is the fourth field.
  char text[256];
  if (!read_proc_text("/proc/loadavg", text, sizeof text)) return std::nullopt;
  const char* slash = std::strchr(text, '/');
  if (!slash) return std::nullopt;
  return std::strtoll(slash + 1, nullptr, 10);
}

int64_t most_candidate_tasks() {
  const int64_t cores = std::max<int64_t>(1, std::thread::hardware_concurrency());
  return 512 + 4 * cores;
}

std::optional<int64_t> TaskBound::past() {
  std::optional<int64_t> machine = machine_task_count();
  const auto now = std::chrono::steady_clock::now();
  if (machine && count_above_ && *machine <= *count_above_ && now - counted_ < kLongestBetweenCounts)
    return std::nullopt;
  counted_ = now;
  std::optional<int64_t> tasks = tree_task_count(root_, most_);
  if (!tasks) return std::nullopt;
  if (*tasks > most_) return tasks;
  // Until the machine has gained the tree's room, the tree cannot have passed the bound.
  if (machine) count_above_ = *machine + (most_ - *tasks);
  return std::nullopt;
}

}  // namespace kforge
