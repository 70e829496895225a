// The tree's CPU time (pool/tree_cpu.hpp) on real processes: a grandchild spinning counted while
// it runs, its time counted once after its parent reaped it (not twice in between), and the
// resource watch ending a tree whose CPU is all in children.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <thread>

#include "pool/resource_watch.hpp"
#include "pool/tree_cpu.hpp"
#include "support/process_group.hpp"

namespace kforge {
namespace {

using Clock = std::chrono::steady_clock;

void spin_for(std::chrono::milliseconds span) {
  const auto end = Clock::now() + span;
  while (Clock::now() < end) {
  }
}

// Spins until this process has used `cpu` of CPU time (not wall time: a loaded machine gives it less).
void spin_cpu(std::chrono::milliseconds cpu) {
  timespec used{};
  do {
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used);
  } while (used.tv_sec * 1000 + used.tv_nsec / 1000000 < cpu.count());
}

// A child in a group of its own, asleep, that forks `grandchildren` children spinning until they
// have used `spin` of CPU time (forever when zero) and reaps them as they end.
pid_t start_tree(int grandchildren, std::chrono::milliseconds spin) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    for (int i = 0; i < grandchildren; ++i)
      if (::fork() == 0) {
        if (spin.count() == 0)
          for (;;) spin_for(std::chrono::milliseconds(1000));
        spin_cpu(spin);
        ::_exit(0);
      }
    while (::wait(nullptr) > 0) {
    }
    for (;;) ::pause();
  }
  ::setpgid(pid, pid);
  return pid;
}

TEST(TreeCpu, CountsAGrandchildWhileItSpins) {
  const pid_t pid = start_tree(1, std::chrono::milliseconds(0));
  ASSERT_GT(pid, 0);
  TreeCpu tree(pid);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::optional<TreeCpuTime> before = tree.seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  const std::optional<TreeCpuTime> after = tree.seconds();
  testing::end_process_group(pid);
  ASSERT_TRUE(before && after);
  EXPECT_GT(after->tree - before->tree, 0.1);  // one core for 0.6 s (a loaded machine gives less); uncounted, 0
  EXPECT_LT(after->root - before->root, 0.05);  // the child only waits
  EXPECT_FALSE(TreeCpu(pid).seconds());  // gone
}

TEST(TreeCpu, AReapedGrandchildCountsOnce) {
  const pid_t pid = start_tree(1, std::chrono::milliseconds(300));
  ASSERT_GT(pid, 0);
  TreeCpu tree(pid);
  double most = 0, last = 0;
  // A look every 20 ms, as the watch takes them, until the grandchild's time has moved into its
  // reaper's, and 0.3 s more (10 s at most, for a loaded machine).
  std::optional<ProcessCpu> child;
  for (int i = 0, after = 0; i < 500 && after < 15; ++i) {
    if (std::optional<TreeCpuTime> s = tree.seconds()) {
      last = s->tree;
      most = std::max(most, s->tree);
    }
    child = process_cpu(pid);
    if (child && child->reaped > 0) ++after;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (std::optional<TreeCpuTime> s = tree.seconds()) last = s->tree;
  child = process_cpu(pid);
  testing::end_process_group(pid);
  ASSERT_TRUE(child);
  EXPECT_GT(child->reaped, 0.25);  // the grandchild's 0.3 s of CPU, now in the time of its reaper
  EXPECT_NEAR(last, child->own + child->reaped, 0.02);
  EXPECT_LE(most, last + 0.02);  // never the grandchild's time twice
}

// A candidate's CPU bounds (its process and what it starts), at half a core over 300 ms.
ResourceBounds half_a_core_for_the_tree() {
  ResourceBounds bounds;
  bounds.cpu_cores = 0.5;
  bounds.cpu_window = std::chrono::milliseconds(300);
  bounds.whole_tree = true;
  return bounds;
}

TEST(ResourceWatch, CpuInChildrenEndsTheTree) {
  const pid_t pid = start_tree(2, std::chrono::milliseconds(0));
  ASSERT_GT(pid, 0);
  ResourceWatch watch(pid, half_a_core_for_the_tree());
  const bool tripped = testing::wait_for_trip(watch, std::chrono::milliseconds(3000)) == ResourceWatch::Tripped::cpu;
  const bool ended = testing::ended_by_sigkill(pid, tripped);
  EXPECT_TRUE(tripped);
  EXPECT_NE(watch.what_passed().find("process and those it started kept"), std::string::npos) << watch.what_passed();
  EXPECT_TRUE(ended);
}

TEST(ResourceWatch, AProcessAloneIsHeldToItsShareWithoutTheAllowance) {
  // A spinning process with no children, over a share of 0.5: the process's own bound trips, and
  // says so, before the tree's (its share and the allowance). Before the process's own rate was
  // held apart, a CPU bomb in the candidate's own threads (hang_cpu_threads_all_cores.py) took
  // 1.0-1.25 cores under load on 2 cores and ran to its timeout inside the allowance.
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    for (;;) spin_for(std::chrono::milliseconds(1000));
  }
  ::setpgid(pid, pid);
  ResourceWatch watch(pid, half_a_core_for_the_tree());
  const bool tripped = testing::wait_for_trip(watch, std::chrono::milliseconds(3000)) == ResourceWatch::Tripped::cpu;
  testing::end_process_group(pid);
  EXPECT_TRUE(tripped);
  EXPECT_NE(watch.what_passed().find("process kept"), std::string::npos) << watch.what_passed();
}

}  // namespace
}  // namespace kforge
