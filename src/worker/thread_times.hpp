#pragma once
// What a stopped process's threads (and those of the processes under it) have run, from
// /proc/<pid>/task/*/{stat,schedstat,children}: how kforge knows every thread of a candidate's
// process has stopped (CandidateProcess::stop) and that none ran while it was stopped (the
// ran-while-stopped check, CandidateProcess::resume). No torch, so the unit tests build it as it is.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace kforge::worker {

// What one thread has run so far: its CPU time and how many times it was switched onto a CPU (the
// first and third fields of its schedstat).
struct ThreadRun {
  uint64_t ns = 0;
  uint64_t slices = 0;
  bool operator==(const ThreadRun&) const = default;
};
using ThreadRuns = std::map<int, ThreadRun>;  // tid -> what it has run

// The most processes (the candidate's and those under it) a reading follows. An honest candidate
// has a few at most (torch.compile's compile workers: at most 32, by Inductor's
// decide_compile_threads, and the process that holds them); a tree
// larger than this cannot be watched whole, and a reading that finds one says so.
inline constexpr size_t kMostWatchedProcesses = 128;

struct ThreadTimes {
  ThreadRuns stopped;        // each stopped thread's
  bool any_running = false;  // some thread is neither stopped ('T', 't') nor ending ('Z', 'X')
  bool too_many_processes = false;  // more than kMostWatchedProcesses: the rest were not read
};

// The threads of `pid` and of every process under it (its threads' children, theirs, and so on,
// from /proc/<pid>/task/<tid>/children): whether any runs, and, `with_times`, what each stopped one
// has run. The processes under it share its process group, so kforge's SIGSTOP stops them too, and
// a child the candidate forked could otherwise run beside what is timed while its parent holds
// still, and be gone before any later look (the integrity watch's, in the candidate's own process,
// looks for live children once a batch). Without `with_times` it stops at the first thread that
// runs. None where `pid` is gone.
std::optional<ThreadTimes> thread_times(pid_t pid, bool with_times);

// Whether every thread of `pid` and of the processes under it is stopped (or ending, or gone).
bool all_threads_stopped(pid_t pid);

// Waits until all_threads_stopped(pid), sending SIGSTOP to the process group `pid` leads again every
// `poll` (a process that resumes itself would otherwise never be seen stopped whole); false at
// `deadline`. A signal is taken when a thread next leaves the kernel, so a thread inside a system
// call that only a fatal signal interrupts (mmap with MAP_POPULATE, mlock) runs on to its end.
bool wait_until_stopped(pid_t pid, std::chrono::steady_clock::time_point deadline, std::chrono::microseconds poll);

// Each stopped thread's CPU time once it holds still, for a process whose threads were all seen
// stopped. A thread reads 'T' as soon as it takes the stop, a moment before it switches out, and
// its schedstat lacks what it ran since the scheduler last counted (up to a tick) until that
// switch: read at once, honest processes seemed to run 0.26 and 0.31 ms while stopped on the H200
// (session 36). So the times count once two readings 100 us apart agree with every thread stopped
// in both. A thread found running is stopped again (SIGSTOP to the process group `pid` leads);
// after 20 ms the last reading with every thread stopped, if any. None where the process is gone.
// (Even so an honest thread was once charged 0.45 ms later, on an H100 (session 37): run_since
// does not count time that came without a new slice.)
std::optional<ThreadRuns> settled_thread_times(pid_t pid);

// What ran between two readings of a stopped process. A thread that ran while stopped was switched
// onto a CPU again, so only a thread with more slices counts its gain as `ran_ns`; time a thread
// gained without one (`late_ns`, up to a scheduler tick at the coarsest, 10 ms; beyond it, a run)
// is its last run before the stop, counted late by the kernel, which no resume explains.
// `changed`: how many threads came, went or were found running.
struct RunWhileStopped {
  uint64_t ran_ns = 0;
  uint64_t late_ns = 0;
  size_t changed = 0;
};
RunWhileStopped run_since(const ThreadRuns& then, const ThreadTimes& now);

}  // namespace kforge::worker
