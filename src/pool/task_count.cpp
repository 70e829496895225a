#include "pool/task_count.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace kforge {

namespace {

// The whole of a small /proc file into `buffer`, NUL-terminated. POSIX calls only: this runs in
// the worker module too, where iostreams were seen to crash.
bool read_small(const std::string& path, char* buffer, size_t size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  size_t used = 0;
  for (ssize_t n; used + 1 < size && (n = ::read(fd, buffer + used, size - 1 - used)) > 0;) used += static_cast<size_t>(n);
  ::close(fd);
  buffer[used] = '\0';
  return true;
}

}  // namespace

std::optional<int64_t> tree_task_count(pid_t root, int64_t most) {
  std::vector<pid_t> waiting{root};
  std::set<pid_t> seen;
  int64_t tasks = 0;
  bool root_read = false;
  char list[4096];
  while (!waiting.empty() && tasks <= most) {
    const pid_t pid = waiting.back();
    waiting.pop_back();
    if (!seen.insert(pid).second) continue;
    const std::string folder = "/proc/" + std::to_string(pid) + "/task";
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) continue;  // gone meanwhile
    root_read = root_read || pid == root;
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      tasks += 1;
      if (!read_small(folder + "/" + entry->d_name + "/children", list, sizeof list)) continue;
      for (char *at = list, *end = nullptr;; at = end) {
        const long child = std::strtol(at, &end, 10);
        if (end == at) break;
        if (child > 0) waiting.push_back(static_cast<pid_t>(child));
      }
    }
    ::closedir(dir);
  }
  if (!root_read) return std::nullopt;
  return tasks;
}

std::optional<int64_t> machine_task_count() {
  // "0.42 2.05 2.51 1/86 19012": runnable/total tasks is the fourth field.
  char text[256];
  if (!read_small("/proc/loadavg", text, sizeof text)) return std::nullopt;
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
