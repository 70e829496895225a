#pragma once
// What a stopped process's threads have run, from /proc/<pid>/task/*/{stat,schedstat}: how kforge
// knows every thread of a candidate's process has stopped (CandidateProcess::stop) and that none
// ran while it was stopped (the ran-while-stopped check, CandidateProcess::resume). No torch, so
// the unit tests build it as it is.
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

namespace kforge::worker {

struct ThreadTimes {
  std::map<int, uint64_t> stopped;  // tid -> run time so far [ns], of each stopped thread
  bool any_running = false;         // some thread is neither stopped ('T', 't') nor ending ('Z', 'X')
};

// The threads of `pid`: whether any runs, and, `with_times`, each stopped one's CPU time (the
// first field of its schedstat). Without `with_times` it stops at the first thread that runs.
// None where the process is gone.
std::optional<ThreadTimes> thread_times(pid_t pid, bool with_times);

// Whether every thread of `pid` is stopped (or ending, or gone).
bool all_threads_stopped(pid_t pid);

// Each stopped thread's CPU time once it holds still, for a process whose threads were all seen
// stopped. A thread reads 'T' as soon as it takes the stop, a moment before it switches out, and
// its schedstat lacks what it ran since the scheduler last counted (up to a tick) until that
// switch: read at once, honest processes seemed to run 0.26 and 0.31 ms while stopped on the H200
// (session 36). So the times count once two readings 100 us apart agree with every thread stopped
// in both. A thread found running is stopped again (SIGSTOP to the process group `pid` leads);
// after 20 ms the last reading with every thread stopped, if any. None where the process is gone.
std::optional<std::map<int, uint64_t>> settled_thread_times(pid_t pid);

// What ran between two readings of a stopped process: the CPU time its stopped threads gained,
// and how many threads came, went or were found running.
struct RunWhileStopped {
  uint64_t ran_ns = 0;
  size_t changed = 0;
};
RunWhileStopped run_since(const std::map<int, uint64_t>& then, const ThreadTimes& now);

}  // namespace kforge::worker
