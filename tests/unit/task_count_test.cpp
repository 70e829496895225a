// The task bound (pool/task_count.hpp) on real processes: a child's threads and its own children
// counted through /proc, a bound that trips past its figure only, and the resource watch ending a
// tree that passed it.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

#include "pool/resource_watch.hpp"
#include "pool/task_count.hpp"
#include "support/process_group.hpp"

namespace kforge {
namespace {

// A child in a group of its own with `threads` more threads and one grandchild, all asleep until
// killed; its pid once every one of them is there (the parent reads a byte from each).
pid_t start_tree(int threads) {
  int ready[2];
  if (::pipe(ready) != 0) return -1;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::close(ready[0]);
    if (::fork() == 0) {  // the grandchild
      [[maybe_unused]] auto n = ::write(ready[1], "g", 1);
      for (;;) ::pause();
    }
    std::vector<std::thread> sleepers;
    for (int i = 0; i < threads; ++i)
      sleepers.emplace_back([fd = ready[1]] {
        [[maybe_unused]] auto n = ::write(fd, "t", 1);
        for (;;) ::pause();
      });
    for (;;) ::pause();
  }
  ::setpgid(pid, pid);
  ::close(ready[1]);
  char byte;
  for (int got = 0; got < threads + 1 && ::read(ready[0], &byte, 1) == 1;) ++got;
  ::close(ready[0]);
  return pid;
}

TEST(TaskCount, CountsEveryThreadOfTheTree) {
  const pid_t pid = start_tree(40);
  ASSERT_GT(pid, 0);
  std::optional<int64_t> tasks = tree_task_count(pid, 1000);
  testing::end_process_group(pid);
  ASSERT_TRUE(tasks);
  EXPECT_EQ(*tasks, 40 + 1 + 1);  // the threads, the child's main thread, the grandchild
  ASSERT_TRUE(machine_task_count());
  EXPECT_GE(*machine_task_count(), 1);
  EXPECT_FALSE(tree_task_count(pid, 1000));  // gone
}

TEST(TaskCount, ABoundTripsPastItsFigureOnly) {
  const pid_t pid = start_tree(40);
  ASSERT_GT(pid, 0);
  TaskBound roomy(pid, 100);
  TaskBound tight(pid, 30);
  EXPECT_FALSE(roomy.past());
  std::optional<int64_t> past = tight.past();
  testing::end_process_group(pid);
  ASSERT_TRUE(past);
  EXPECT_GT(*past, 30);
}

TEST(ResourceWatch, TooManyTasksEndTheTree) {
  const pid_t pid = start_tree(40);
  ASSERT_GT(pid, 0);
  ResourceBounds bounds;
  bounds.most_tasks = 30;
  ResourceWatch watch(pid, bounds);
  const bool tripped = testing::wait_for_trip(watch, std::chrono::milliseconds(2000)) == ResourceWatch::Tripped::tasks;
  const bool ended = testing::ended_by_sigkill(pid, tripped);
  EXPECT_TRUE(tripped);
  EXPECT_GT(watch.seen_tasks(), 30);
  EXPECT_TRUE(ended);
}

}  // namespace
}  // namespace kforge
