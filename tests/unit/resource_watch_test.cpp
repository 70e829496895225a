// The resource watch's CPU bound: a process that keeps one core busy trips a bound of half a core
// and not a bound of two; /proc readings of this very process make sense.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "pool/resource_watch.hpp"

namespace kforge {
namespace {

// A child that spins on one core until killed; its own process group, as a worker has.
pid_t start_spinner() {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    volatile unsigned long n = 0;
    for (;;) n = n + 1;
  }
  ::setpgid(pid, pid);
  return pid;
}

// A CPU bound of `cores` judged over half a second (the default 3 s would only slow the tests).
ResourceBounds cpu_bound(double cores) {
  ResourceBounds bounds;
  bounds.cpu_cores = cores;
  bounds.cpu_window = std::chrono::milliseconds(500);
  return bounds;
}

void reap(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

TEST(ResourceWatch, ReadsThisProcess) {
  auto before = cpu_seconds(::getpid());
  ASSERT_TRUE(before);
  auto t0 = std::chrono::steady_clock::now();
  volatile unsigned long n = 0;
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(300)) n = n + 1;
  auto after = cpu_seconds(::getpid());
  ASSERT_TRUE(after);
  EXPECT_GT(*after - *before, 0.1);
  auto rss = resident_bytes(::getpid());
  ASSERT_TRUE(rss);
  EXPECT_GT(*rss, 1 << 20);
}

TEST(ResourceWatch, BusyCoreTripsAHalfCoreBound) {
  pid_t pid = start_spinner();
  ResourceWatch watch(pid, cpu_bound(0.5));
  for (int i = 0; i < 100 && watch.tripped() == ResourceWatch::Tripped::none; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(watch.tripped(), ResourceWatch::Tripped::cpu);
  EXPECT_GT(watch.seen_cores(), 0.5);
  reap(pid);
}

TEST(ResourceWatch, BusyCoreStaysUnderATwoCoreBound) {
  pid_t pid = start_spinner();
  {
    ResourceWatch watch(pid, cpu_bound(2));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    EXPECT_EQ(watch.tripped(), ResourceWatch::Tripped::none);
  }
  reap(pid);
}

}  // namespace
}  // namespace kforge
