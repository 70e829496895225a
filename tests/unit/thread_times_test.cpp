// worker/thread_times.hpp on a real process: a child that spins, stopped and resumed by the test
// as kforge stops and resumes a candidate's process.
#include "worker/thread_times.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace kforge::worker {
namespace {

// A child in a process group of its own (as a candidate's process is), spinning on the CPU so
// that it is mid-run whenever the stop comes; killed with its group at the end of the test.
class SpinningChild {
 public:
  SpinningChild() {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      for (;;) asm volatile("" ::: "memory");  // a loop the compiler keeps
    }
    ::setpgid(pid_, pid_);  // either side may come first
  }
  ~SpinningChild() {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

  // Stops it as CandidateProcess::stop does: SIGSTOP to the group, until every thread reads stopped.
  bool stop() const {
    ::kill(-pid_, SIGSTOP);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!all_threads_stopped(pid_))
      if (std::chrono::steady_clock::now() > deadline) return false;
    return true;
  }

 private:
  pid_t pid_;
};

TEST(ThreadTimes, ASettledReadingDoesNotMoveWhileTheProcessStaysStopped) {
  SpinningChild child;
  ASSERT_GT(child.pid(), 0);
  // Each round stops the child mid-spin: a reading taken the moment it shows 'T' may still lack
  // its last slice of run time; a settled one must not.
  for (int round = 0; round < 20; ++round) {
    ::kill(-child.pid(), SIGCONT);
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    ASSERT_TRUE(child.stop());
    const auto baseline = settled_thread_times(child.pid());
    ASSERT_TRUE(baseline.has_value());
    ASSERT_EQ(baseline->size(), 1u);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto later = thread_times(child.pid(), true);
    ASSERT_TRUE(later.has_value());
    const RunWhileStopped ran = run_since(*baseline, *later);
    EXPECT_EQ(ran.ran_ns, 0u) << "round " << round;
    EXPECT_EQ(ran.late_ns, 0u) << "round " << round;
    EXPECT_EQ(ran.changed, 0u) << "round " << round;
  }
}

TEST(ThreadTimes, ARunWhileStoppedIsSeen) {
  SpinningChild child;
  ASSERT_GT(child.pid(), 0);
  ASSERT_TRUE(child.stop());
  const auto baseline = settled_thread_times(child.pid());
  ASSERT_TRUE(baseline.has_value());
  // Resumed behind kforge's back (as a SIGCONT the process arranged for itself would), then
  // stopped again: the time it ran is there to see, and nothing came or went.
  ::kill(child.pid(), SIGCONT);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(child.stop());
  const auto later = settled_thread_times(child.pid());
  ASSERT_TRUE(later.has_value());
  ThreadTimes now;
  now.stopped = *later;
  const RunWhileStopped ran = run_since(*baseline, now);
  EXPECT_GT(ran.ran_ns, 2'000'000u);  // most of the 20 ms, on a machine not wholly taken
  EXPECT_EQ(ran.changed, 0u);
}

// A process group like a candidate's whose leader sleeps while `children` processes it forked
// either spin (`spin`) or sleep; constructed once every child has started. Killed with its group.
class ParentOfChildren {
 public:
  ParentOfChildren(int children, bool spin) {
    int ready[2];
    if (::pipe(ready) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      ::close(ready[0]);
      for (int i = 0; i < children; ++i)
        if (::fork() == 0) {
          ::close(ready[1]);
          if (spin)
            for (;;) asm volatile("" ::: "memory");
          for (;;) ::pause();
        }
      [[maybe_unused]] auto n = ::write(ready[1], "x", 1);
      for (;;) ::pause();
    }
    ::setpgid(pid_, pid_);
    ::close(ready[1]);
    char byte;
    [[maybe_unused]] auto n = ::read(ready[0], &byte, 1);
    ::close(ready[0]);
  }
  ~ParentOfChildren() {
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

TEST(ThreadTimes, AChildThatRunsWhileItsParentHoldsStillIsSeen) {
  ParentOfChildren group(1, /*spin=*/true);
  ASSERT_GT(group.pid(), 0);
  ::kill(-group.pid(), SIGSTOP);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!all_threads_stopped(group.pid())) ASSERT_LT(std::chrono::steady_clock::now(), deadline);
  const auto baseline = settled_thread_times(group.pid());
  ASSERT_TRUE(baseline.has_value());
  ASSERT_EQ(baseline->size(), 2u) << "the parent's thread and its child's";
  pid_t child = -1;
  for (const auto& [tid, run] : *baseline)
    if (tid != group.pid()) child = tid;
  // The child alone resumed (as by a way of resuming itself), then stopped again: its run shows,
  // though the parent never moved.
  ::kill(child, SIGCONT);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(-group.pid(), SIGSTOP);
  while (!all_threads_stopped(group.pid())) ASSERT_LT(std::chrono::steady_clock::now(), deadline + std::chrono::seconds(1));
  const auto later = thread_times(group.pid(), true);
  ASSERT_TRUE(later.has_value());
  EXPECT_FALSE(later->too_many_processes);
  const RunWhileStopped ran = run_since(*baseline, *later);
  EXPECT_GT(ran.ran_ns, 2'000'000u);
  EXPECT_EQ(ran.changed, 0u);
}

TEST(ThreadTimes, AChildRunningIsARunningThread) {
  ParentOfChildren group(1, /*spin=*/true);
  ASSERT_GT(group.pid(), 0);
  // The parent sleeps, its child spins: the group is not stopped.
  EXPECT_FALSE(all_threads_stopped(group.pid()));
}

TEST(ThreadTimes, MoreProcessesThanCanBeWatchedAreSaidSo) {
  ParentOfChildren few(3, /*spin=*/false);
  const auto three = thread_times(few.pid(), true);
  ASSERT_TRUE(three.has_value());
  EXPECT_FALSE(three->too_many_processes);
  ParentOfChildren many(static_cast<int>(kMostWatchedProcesses), /*spin=*/false);
  const auto all = thread_times(many.pid(), true);
  ASSERT_TRUE(all.has_value());
  EXPECT_TRUE(all->too_many_processes) << kMostWatchedProcesses << " children and their parent";
}

// A thread inside a system call that only a fatal signal interrupts (a populated mmap: the kernel
// zeroes every page before it returns) takes the stop when the call ends, not when it is sent;
// wait_until_stopped waits for it, sending SIGSTOP again meanwhile.
TEST(ThreadTimes, AThreadHeldInASystemCallIsWaitedFor) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    for (;;) {
      void* p = ::mmap(nullptr, size_t{256} << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
      if (p != MAP_FAILED) ::munmap(p, size_t{256} << 20);
    }
  }
  ::setpgid(pid, pid);
  for (int round = 0; round < 5; ++round) {
    ::kill(-pid, SIGCONT);
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + 7 * round));
    ::kill(-pid, SIGSTOP);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_TRUE(wait_until_stopped(pid, t0 + std::chrono::seconds(5), std::chrono::microseconds(200))) << "round " << round;
    EXPECT_TRUE(all_threads_stopped(pid)) << "round " << round;
    // Held still once stopped: nothing more runs.
    const auto baseline = thread_times(pid, true);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto later = thread_times(pid, true);
    ASSERT_TRUE(baseline && later);
    EXPECT_EQ(run_since(baseline->stopped, *later).ran_ns, 0u) << "round " << round;
  }
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

// A deadline that has passed while a thread still runs: false, at once.
TEST(ThreadTimes, AWaitPastItsDeadlineSaysSo) {
  SpinningChild child;
  ASSERT_GT(child.pid(), 0);
  EXPECT_FALSE(wait_until_stopped(child.pid(), std::chrono::steady_clock::now() - std::chrono::seconds(1),
                                  std::chrono::microseconds(20)));
}

TEST(ThreadTimes, AThreadThatCameOrWentOrRunsIsCounted) {
  ThreadTimes now;
  now.stopped = {{11, {500, 4}}, {13, {900, 1}}};
  now.any_running = true;
  const RunWhileStopped ran = run_since({{11, {400, 3}}, {12, {700, 2}}}, now);
  EXPECT_EQ(ran.ran_ns, 100u);
  EXPECT_EQ(ran.late_ns, 0u);
  EXPECT_EQ(ran.changed, 3u);  // 12 went, 13 came, one runs
}

// Time a thread gained without being switched onto a CPU again is its last run before the stop,
// which the kernel counted late (an honest process charged 0.45 ms so, on an H100, session 37):
// apart from a run while stopped, which takes a new slice.
TEST(ThreadTimes, TimeWithoutANewSliceIsLateNotARun) {
  ThreadTimes now;
  now.stopped = {{21, {1'450'000, 7}}, {22, {2'000'000, 9}}};
  const RunWhileStopped ran = run_since({{21, {1'000'000, 7}}, {22, {1'000'000, 8}}}, now);
  EXPECT_EQ(ran.late_ns, 450'000u);
  EXPECT_EQ(ran.ran_ns, 1'000'000u);
  EXPECT_EQ(ran.changed, 0u);
}

// More than a tick without a new slice is no late count: a thread resumed between taking the stop
// and switching out runs on without one.
TEST(ThreadTimes, LongerThanATickWithoutANewSliceIsARun) {
  ThreadTimes now;
  now.stopped = {{31, {25'000'000, 5}}};
  const RunWhileStopped ran = run_since({{31, {1'000'000, 5}}}, now);
  EXPECT_EQ(ran.late_ns, 10'000'000u);
  EXPECT_EQ(ran.ran_ns, 14'000'000u);
}

TEST(ThreadTimes, AProcessThatIsGoneHasNoTimes) {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  EXPECT_FALSE(thread_times(pid, true).has_value());
  EXPECT_FALSE(settled_thread_times(pid).has_value());
  EXPECT_TRUE(all_threads_stopped(pid));
}

}  // namespace
}  // namespace kforge::worker
