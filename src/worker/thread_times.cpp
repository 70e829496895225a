#include "worker/thread_times.hpp"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/proc_text.hpp"

namespace kforge::worker {
namespace {

// settled_thread_times: readings this far apart must agree; after this long the last one serves.
constexpr auto kSettleGap = std::chrono::microseconds(100);
constexpr auto kSettleDeadline = std::chrono::milliseconds(20);
// run_since: a thread's last run before the stop is counted late by at most a scheduler tick (10 ms
// at the coarsest, HZ=100); what it gains beyond that without a new slice counts as a run. (A thread
// resumed in the moment between taking the stop and switching out would run on without one.)
constexpr uint64_t kMostLateNs = 10'000'000;

// One process's threads into `out`; its threads' children onto `children`. False where it is gone.
// Without `with_times`, stops at its first thread that runs.
bool read_process(pid_t pid, bool with_times, ThreadTimes& out, std::vector<pid_t>& children) {
  const std::string dir = "/proc/" + std::to_string(pid) + "/task";
  DIR* tasks = ::opendir(dir.c_str());
  if (!tasks) return false;
  while (dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    const std::string task = dir + "/" + entry->d_name;
    char stat[512], schedstat[128], list[4096];
    if (!read_proc_text(task + "/stat", stat, sizeof stat)) continue;  // gone meanwhile
    // "tid (comm) S ...": the state follows the last ')', since comm may hold one.
    const char* close_paren = std::strrchr(stat, ')');
    if (!close_paren || close_paren[1] != ' ') continue;
    const char state = close_paren[2];
    if (state == 'Z' || state == 'X') continue;  // ending: its time is no longer its own to grow
    if (read_proc_text(task + "/children", list, sizeof list)) append_listed_pids(list, children);
    if (state != 'T' && state != 't') {
      out.any_running = true;
      if (!with_times) break;
      continue;
    }
    // A stopped thread's time does not move (once it has switched out: settled_thread_times).
    // schedstat: "run time [ns], time waiting on a run queue [ns], slices".
    if (with_times && read_proc_text(task + "/schedstat", schedstat, sizeof schedstat)) {
      char* end = nullptr;
      ThreadRun run;
      run.ns = std::strtoull(schedstat, &end, 10);
      std::strtoull(end, &end, 10);
      run.slices = std::strtoull(end, nullptr, 10);
      out.stopped[std::atoi(entry->d_name)] = run;
    }
  }
  ::closedir(tasks);
  return true;
}

}  // namespace

std::optional<ThreadTimes> thread_times(pid_t pid, bool with_times) {
  ThreadTimes out;
  std::vector<pid_t> waiting;
  if (!read_process(pid, with_times, out, waiting)) return std::nullopt;
  // Its descendants, each once (a pid the walk already read is not read again).
  std::set<pid_t> read{pid};
  while (!waiting.empty() && !(out.any_running && !with_times)) {
    const pid_t next = waiting.back();
    waiting.pop_back();
    if (!read.insert(next).second) continue;
    if (read.size() > kMostWatchedProcesses) {
      out.too_many_processes = true;
      break;
    }
    read_process(next, with_times, out, waiting);  // one gone meanwhile has nothing to add
  }
  return out;
}

bool all_threads_stopped(pid_t pid) {
  const auto threads = thread_times(pid, false);
  return !threads || !threads->any_running;
}

bool wait_until_stopped(pid_t pid, std::chrono::steady_clock::time_point deadline, std::chrono::microseconds poll) {
  while (!all_threads_stopped(pid)) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(poll);
    ::kill(-pid, SIGSTOP);
  }
  return true;
}

std::optional<ThreadRuns> settled_thread_times(pid_t pid) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + kSettleDeadline;
  std::optional<ThreadTimes> last = thread_times(pid, true);
  std::optional<ThreadRuns> baseline;
  while (last) {
    if (last->any_running) ::kill(-pid, SIGSTOP);
    else baseline = last->stopped;
    if (Clock::now() >= deadline) break;
    std::this_thread::sleep_for(kSettleGap);
    std::optional<ThreadTimes> now = thread_times(pid, true);
    if (now && !now->any_running && !last->any_running && now->stopped == last->stopped) return std::move(now->stopped);
    last = std::move(now);
  }
  return baseline;
}

RunWhileStopped run_since(const ThreadRuns& then, const ThreadTimes& now) {
  RunWhileStopped out;
  for (const auto& [tid, run] : then) {
    auto it = now.stopped.find(tid);
    if (it == now.stopped.end()) ++out.changed;
    else if (it->second.ns > run.ns) {
      const uint64_t gained = it->second.ns - run.ns;
      if (it->second.slices > run.slices) out.ran_ns += gained;
      else {
        const uint64_t late = std::min(gained, kMostLateNs);
        out.late_ns += late;
        out.ran_ns += gained - late;
      }
    }
  }
  for (const auto& [tid, run] : now.stopped)
    if (!then.count(tid)) ++out.changed;
  if (now.any_running) ++out.changed;
  return out;
}

}  // namespace kforge::worker
