#include "pool/tree_cpu.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "common/proc_text.hpp"
#include "pool/process_tree.hpp"

namespace kforge {

std::optional<ProcessCpu> process_cpu(pid_t pid) {
  char text[1024];
  if (!read_proc_text("/proc/" + std::to_string(pid) + "/stat", text, sizeof text)) return std::nullopt;
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields are counted after
  // the last ')'. utime, stime, cutime and cstime are fields 14 to 17, in clock ticks.
  const char* at = std::strrchr(text, ')');
  if (!at) return std::nullopt;
  ++at;
  long long own = 0, reaped = 0;
  for (int field = 3; field <= 17; ++field) {
    while (*at == ' ') ++at;
    if (!*at) return std::nullopt;
    const long long value = std::strtoll(at, nullptr, 10);  // 0 for the state, a letter
    if (field == 14 || field == 15) own += value;
    if (field == 16 || field == 17) reaped += value;
    while (*at && *at != ' ') ++at;
  }
  static const long per_second = ::sysconf(_SC_CLK_TCK);
  const double tick = 1.0 / static_cast<double>(per_second > 0 ? per_second : 100);
  return ProcessCpu{static_cast<double>(own) * tick, static_cast<double>(reaped) * tick};
}

std::optional<TreeCpuTime> TreeCpu::seconds() {
  const std::optional<ProcessCpu> root = process_cpu(root_);
  if (!root) return std::nullopt;
  const auto now = std::chrono::steady_clock::now();
  if (now - walked_ >= kLongestBetweenWalks || root->reaped != root_reaped_) {
    walked_ = now;
    root_reaped_ = root->reaped;
    double descendants = 0;
    walk_process_tree(root_, [&](pid_t pid, int64_t) {
      if (pid != root_)
        if (std::optional<ProcessCpu> cpu = process_cpu(pid)) descendants += cpu->own + cpu->reaped;
      return true;
    });
    descendants_ = descendants;
  }
  return TreeCpuTime{root->own, root->own + root->reaped + descendants_};
}

}  // namespace kforge
