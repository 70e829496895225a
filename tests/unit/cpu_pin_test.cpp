// The timing CPUs of a GPU worker (src/worker/cpu_pin.hpp): the default choice, the operator's
// KFORGE_WORKER_TIMING_CPUS, and a pinned thread put back as it was.
#include "worker/cpu_pin.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace kforge::worker {
namespace {

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(::sched_getaffinity(0, sizeof set, &set), 0);
  return CPU_COUNT(&set);
}

class TimingCpusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::unsetenv("KFORGE_WORKER_TIMING_CPUS");
    ::unsetenv("CUDA_VISIBLE_DEVICES");
    if (usable_cpus() < 2) GTEST_SKIP() << "needs two usable CPUs";
  }
  void TearDown() override {
    ::unsetenv("KFORGE_WORKER_TIMING_CPUS");
    ::unsetenv("CUDA_VISIBLE_DEVICES");
  }
};

TEST_F(TimingCpusTest, TwoDifferentCpusAndCpuZeroLast) {
  auto cpus = timing_cpus();
  ASSERT_TRUE(cpus.has_value());
  EXPECT_NE(cpus->reference, cpus->candidate);
  EXPECT_NE(cpus->reference, 0) << "CPU 0 is taken last, and there is another";
}

TEST_F(TimingCpusTest, AnOperatorsChoiceIsTakenInItsOrder) {
  auto default_cpus = timing_cpus();
  ASSERT_TRUE(default_cpus.has_value());
  const std::string swapped = std::to_string(default_cpus->candidate) + "," + std::to_string(default_cpus->reference);
  ::setenv("KFORGE_WORKER_TIMING_CPUS", swapped.c_str(), 1);
  auto cpus = timing_cpus();
  ASSERT_TRUE(cpus.has_value());
  EXPECT_EQ(cpus->reference, default_cpus->candidate);
  EXPECT_EQ(cpus->candidate, default_cpus->reference);
}

TEST_F(TimingCpusTest, AChoiceThatCannotBeUsedFallsBackToTheDefault) {
  auto default_cpus = timing_cpus();
  ASSERT_TRUE(default_cpus.has_value());
  for (const char* bad : {"", "1", "a,b", "1,2,3", "-1,0", "0,99999", "1;0"}) {
    ::setenv("KFORGE_WORKER_TIMING_CPUS", bad, 1);
    auto cpus = timing_cpus();
    ASSERT_TRUE(cpus.has_value()) << bad;
    EXPECT_EQ(cpus->reference, default_cpus->reference) << bad;
    EXPECT_EQ(cpus->candidate, default_cpus->candidate) << bad;
  }
}

TEST_F(TimingCpusTest, AnotherGpuGetsOtherCpusWhereThereAreEnough) {
  if (usable_cpus() < 4) GTEST_SKIP() << "needs four usable CPUs";
  auto first = timing_cpus();
  ::setenv("CUDA_VISIBLE_DEVICES", "1", 1);
  auto second = timing_cpus();
  ASSERT_TRUE(first && second);
  EXPECT_NE(first->reference, second->reference);
  EXPECT_NE(first->reference, second->candidate);
  EXPECT_NE(first->candidate, second->reference);
  EXPECT_NE(first->candidate, second->candidate);
}

TEST_F(TimingCpusTest, APinnedThreadRunsOnItsCpuAndIsPutBack) {
  cpu_set_t before;
  ASSERT_EQ(::sched_getaffinity(0, sizeof before, &before), 0);
  const int cpu = timing_cpus()->candidate;
  {
    PinnedThread pinned(cpu);
    cpu_set_t now;
    ASSERT_EQ(::sched_getaffinity(0, sizeof now, &now), 0);
    EXPECT_EQ(CPU_COUNT(&now), 1);
    EXPECT_TRUE(CPU_ISSET(cpu, &now));
  }
  cpu_set_t after;
  ASSERT_EQ(::sched_getaffinity(0, sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

}  // namespace
}  // namespace kforge::worker
