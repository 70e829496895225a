#pragma once
// Runs a compiler (or any program) to completion with a deadline, capturing its output up to a
// cap: the build service's only way to start processes.
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

struct sock_fprog;  // <linux/filter.h>

namespace kforge::build {

struct ProcessResult {
  int exit_code = -1;      // 128 + signal when killed by one
  bool timed_out = false;  // killed at the deadline (with its process group)
  bool truncated = false;  // output exceeded the cap; the rest was discarded
  std::string output;      // stdout and stderr interleaved
  double seconds = 0;
};

// `on_output`, when given, sees every chunk of output as it is read (before the cap), so a caller
// can act on a long run's results while it goes on. `env` ("NAME=value" entries), when given, is
// the process's whole environment instead of kforge's. `ruleset`, when not -1, is a Landlock
// ruleset (common/landlock.hpp) the process runs under from before its program starts, and
// `filter`, when given, a seccomp filter (common/seccomp_filter.hpp) it runs under too, without
// any capability (a compiler confined to its build's folder and its own processes; exit status
// 126 where the kernel refused either). Whatever the process leaves in its group is killed when it
// ends.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                          size_t output_cap = 1 << 20, const std::string& cwd = "",
                          const std::function<void(std::string_view)>& on_output = {},
                          const std::vector<std::string>* env = nullptr, int ruleset = -1,
                          const sock_fprog* filter = nullptr);

}  // namespace kforge::build
