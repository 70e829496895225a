// Builds kept off the GPU workers' timing CPUs (src/pool/build_cpus.hpp), and the timing CPUs'
// choice the worker and the orchestrator share (src/common/timing_cpu_choice.hpp).
#include "pool/build_cpus.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/timing_cpu_choice.hpp"

namespace kforge {
namespace {

// A 16-CPU machine as timing orders it: 1..15, then 0.
std::vector<int> sixteen() {
  std::vector<int> cpus;
  for (int cpu = 1; cpu < 16; ++cpu) cpus.push_back(cpu);
  cpus.push_back(0);
  return cpus;
}

TEST(BuildCpus, EachGpuWorkersTimingPairIsLeftOut) {
  std::vector<int> one = build_cpus(sixteen(), {0});
  EXPECT_EQ(one.front(), 3);  // 1 and 2: GPU 0's pair
  EXPECT_EQ(one.size(), 14u);
  std::vector<int> two = build_cpus(sixteen(), {0, 1});
  EXPECT_EQ(two.front(), 5);  // 3 and 4: GPU 1's pair
  EXPECT_EQ(two.back(), 0);
  EXPECT_EQ(two.size(), 12u);
}

TEST(BuildCpus, TheOperatorsPairHoldsForEveryWorker) {
  std::vector<int> cpus = build_cpus(sixteen(), {0, 1}, {14, 15});
  EXPECT_EQ(cpus.size(), 14u);
  EXPECT_EQ(cpus.front(), 1);
  EXPECT_EQ(std::count(cpus.begin(), cpus.end(), 14), 0);
}

TEST(BuildCpus, FewerThanTwoLeftKeepsEveryCpu) {
  EXPECT_TRUE(build_cpus({1, 0}, {0}).empty());        // the 2-core development machine
  EXPECT_TRUE(build_cpus({1, 2, 0}, {0}).empty());
  EXPECT_EQ(build_cpus({1, 2, 3, 0}, {0}), (std::vector<int>{3, 0}));
}

TEST(TimingCpuChoice, TheWorkerAndTheOrchestratorReadTheSameGpu) {
  EXPECT_EQ(gpu_index_of("1"), 1);
  EXPECT_EQ(gpu_index_of("cuda:3"), 3);
  EXPECT_EQ(gpu_index_of("GPU-5c1e..."), 0);  // a UUID counts as the first
  EXPECT_EQ(gpu_index_of(""), 0);
  EXPECT_EQ(timing_cpu_pair(sixteen(), 7), (std::pair<int, int>{15, 0}));
  EXPECT_EQ(timing_cpu_pair(sixteen(), 8), (std::pair<int, int>{1, 2}));  // wraps around
  EXPECT_FALSE(timing_cpu_pair({3}, 0));
}

}  // namespace
}  // namespace kforge
