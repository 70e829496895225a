#pragma once
// Runs a compiler (or any program) to completion with a deadline, capturing its output up to a
// cap: the build service's only way to start processes.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
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

// What confines a process that runs on a candidate's words (a compiler given its sources and
// flags): none of it by default.
struct Confinement {
  int ruleset = -1;                    // a Landlock ruleset (common/landlock.hpp) it runs under, or -1
  const sock_fprog* filter = nullptr;  // a seccomp filter (common/seccomp_filter.hpp), without any capability
  // The largest file it may write (common/file_size_limit.hpp; 0: no limit): a source of a few
  // lines can make an object file of gigabytes, and the cache's disk is everyone's.
  int64_t most_file_bytes = 0;
  // Called with the process's pid once it is started, before its output is read: where a caller
  // starts a watch on it (pool/resource_watch.hpp: its tasks, say), which ends with the call.
  std::function<void(pid_t)> on_started;
};

// `on_output`, when given, sees every chunk of output as it is read (before the cap), so a caller
// can act on a long run's results while it goes on. `env` ("NAME=value" entries), when given, is
// the process's whole environment instead of kforge's. `confined`, when given, confines the
// process from before its program starts (a compiler confined to its build's folder and its own
// processes; exit status 126 where the kernel refused the ruleset or the filter). Whatever the
// process leaves in its group is killed when it ends.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                          size_t output_cap = 1 << 20, const std::string& cwd = "",
                          const std::function<void(std::string_view)>& on_output = {},
                          const std::vector<std::string>* env = nullptr, const Confinement& confined = {});

}  // namespace kforge::build
