// The tree's memory bound (pool/tree_memory.hpp) on real processes: a grandchild's own pages
// counted with its parent's resident set, a bound that trips past its figure only, and the
// resource watch ending a tree whose memory is all in a child's child while the child stays small.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "pool/resource_watch.hpp"
#include "pool/tree_memory.hpp"
#include "support/process_group.hpp"

namespace kforge {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

// A child in a group of its own, asleep, whose one grandchild has written `grandchild_bytes` of
// memory of its own; the child's pid once the grandchild has (the parent reads its byte).
pid_t start_tree(int64_t grandchild_bytes) {
  int ready[2];
  if (::pipe(ready) != 0) return -1;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::close(ready[0]);
    if (::fork() == 0) {  // the grandchild
      std::vector<char> hoard(static_cast<size_t>(grandchild_bytes));
      std::memset(hoard.data(), 1, hoard.size());  // written, so resident
      [[maybe_unused]] auto n = ::write(ready[1], "g", 1);
      for (;;) ::pause();
    }
    for (;;) ::pause();
  }
  ::setpgid(pid, pid);
  ::close(ready[1]);
  char byte;
  [[maybe_unused]] auto n = ::read(ready[0], &byte, 1);
  ::close(ready[0]);
  return pid;
}

TEST(TreeMemory, CountsWhatADescendantWrote) {
  const pid_t pid = start_tree(96 * kMiB);
  ASSERT_GT(pid, 0);
  std::optional<TreeMemory> held = tree_resident_memory(pid);
  testing::end_process_group(pid);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->processes, 2);
  EXPECT_GE(held->bytes, 96 * kMiB);
  EXPECT_LT(held->bytes, 200 * kMiB);  // the test binary's resident set and the grandchild's own pages
  EXPECT_FALSE(tree_resident_memory(pid));  // gone
  ASSERT_TRUE(machine_available_bytes());
  EXPECT_GT(*machine_available_bytes(), 0);
}

TEST(TreeMemory, ABoundTripsPastItsFigureOnly) {
  const pid_t pid = start_tree(96 * kMiB);
  ASSERT_GT(pid, 0);
  MemoryBound roomy(pid, 400 * kMiB);
  MemoryBound tight(pid, 64 * kMiB);
  EXPECT_FALSE(roomy.past());
  std::optional<TreeMemory> past = tight.past();
  testing::end_process_group(pid);
  ASSERT_TRUE(past);
  EXPECT_GT(past->bytes, 64 * kMiB);
  EXPECT_EQ(past->processes, 2);
}

TEST(ResourceWatch, MemoryInAChildsChildEndsTheTree) {
  const pid_t pid = start_tree(160 * kMiB);
  ASSERT_GT(pid, 0);
  ResourceBounds bounds;
  bounds.host_memory_bytes = 128 * kMiB;
  bounds.whole_tree = true;
  ResourceWatch watch(pid, bounds);
  const bool tripped = testing::wait_for_trip(watch, std::chrono::milliseconds(2000)) == ResourceWatch::Tripped::host_memory;
  const bool ended = testing::ended_by_sigkill(pid, tripped);
  EXPECT_TRUE(tripped);
  EXPECT_GT(watch.seen_bytes(), 128 * kMiB);
  EXPECT_NE(watch.what_passed().find("over 2 processes"), std::string::npos) << watch.what_passed();
  EXPECT_TRUE(ended);
}

TEST(ResourceWatch, AProcessBoundLeavesItsChildrenUncounted) {
  // A worker's bound (whole_tree off): its own resident set, which is small here.
  const pid_t pid = start_tree(160 * kMiB);
  ASSERT_GT(pid, 0);
  ResourceBounds bounds;
  bounds.host_memory_bytes = 128 * kMiB;
  ResourceWatch watch(pid, bounds);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const bool tripped = watch.tripped() != ResourceWatch::Tripped::none;
  testing::end_process_group(pid);
  EXPECT_FALSE(tripped);
}

}  // namespace
}  // namespace kforge
