#include <gtest/gtest.h>

#include "metrics/speed_of_light.hpp"

namespace kforge::stats {
namespace {

TEST(SpeedOfLight, FloorIsBytesOverTheMarginedCopyRate) {
  // 4.8 GB at 1.25 x 3.84 TB/s = 4.8 TB/s: 1 ms.
  auto floor = memory_floor_ms(4'800'000'000, 3.84e12);
  ASSERT_TRUE(floor);
  EXPECT_NEAR(*floor, 1.0, 1e-9);
  // An honest kernel at the H200's HBM peak (4.8 TB/s) moving the same bytes takes 1 ms: not below.
  EXPECT_FALSE(1.0 < *floor);
}

TEST(SpeedOfLight, NoFloorWithoutARateOrBytes) {
  EXPECT_FALSE(memory_floor_ms(1'000'000, 0.0));  // a CPU worker measures no copy rate
  EXPECT_FALSE(memory_floor_ms(0, 3e12));
}

TEST(SpeedOfLight, ComputeFloorIsTheWorkOverTheGenerousPeak) {
  // The H200: 132 SMs at 1980 MHz x 16384 FLOP/clock = 4.28 PFLOP/s; a 2^40 FLOP problem at 8x
  // fewer FLOPs there: 0.0321 ms.
  const double flops = 1099511627776.0;
  auto floor = compute_floor_ms(static_cast<int64_t>(flops), 132, 1980);
  ASSERT_TRUE(floor);
  EXPECT_NEAR(*floor, 1e3 * flops / kAlgorithmicSaving / (132 * 1980e6 * kTensorFlopsPerSmClock), 1e-12);
  EXPECT_NEAR(*floor, 0.0321, 0.0001);
  // The best honest bf16 matmul of that size on an H200 (about 760 TFLOP/s) takes 1.45 ms: far above.
  EXPECT_GT(1e3 * flops / 760e12, 40 * *floor);
  EXPECT_FALSE(compute_floor_ms(0, 132, 1980));  // elementwise work counts no FLOPs
  EXPECT_FALSE(compute_floor_ms(1000, 0, 1980));
  EXPECT_FALSE(compute_floor_ms(1000, 132, 0));
}

TEST(SpeedOfLight, RejectionFloorIsTheLargerOfTheTwo) {
  auto both = rejection_floor(0.5, 0.8);
  ASSERT_TRUE(both);
  EXPECT_DOUBLE_EQ(both->ms, 0.8);
  EXPECT_TRUE(both->compute);
  auto memory = rejection_floor(0.5, 0.1);
  ASSERT_TRUE(memory);
  EXPECT_DOUBLE_EQ(memory->ms, 0.5);
  EXPECT_FALSE(memory->compute);
  auto compute_only = rejection_floor(std::nullopt, 0.2);
  ASSERT_TRUE(compute_only);
  EXPECT_TRUE(compute_only->compute);
  EXPECT_FALSE(rejection_floor(std::nullopt, std::nullopt));
}

// An fp32 convolution may run on TF32 tensor cores: its FLOPs at that rate, the rest at fp32's.
TEST(SpeedOfLight, ConvolutionFlopsAtTheFasterRate) {
  // 1e12 FLOP of which 8e11 in convolutions: 2e11 / 50e12 + 8e11 / 400e12 = 4 ms + 2 ms.
  auto sol = speed_of_light(1'000'000'000'000, 1'000'000, 50e12, 4e12, 800'000'000'000, 400e12);
  ASSERT_TRUE(sol);
  EXPECT_NEAR(sol->ms, 6.0, 1e-9);
  EXPECT_TRUE(sol->compute_bound);
  // No faster rate known: every FLOP at the base rate; a share larger than the whole is clamped.
  EXPECT_NEAR(speed_of_light(1'000'000'000'000, 1'000'000, 50e12, 4e12, 800'000'000'000, 0)->ms, 20.0, 1e-9);
  EXPECT_NEAR(speed_of_light(1'000'000'000'000, 1'000'000, 50e12, 4e12, 2'000'000'000'000, 400e12)->ms, 2.5, 1e-9);
}

// T_SOL = max(FLOPs / matmul rate, bytes / copy rate), with which term bounds it.
TEST(SpeedOfLight, TimeIsTheLongerOfComputeAndMemory) {
  // A 8192^3 bf16 matmul: 1.1e12 FLOP at 800 TFLOP/s = 1.374 ms; 402 MB at 4.3 TB/s = 0.094 ms.
  auto gemm = speed_of_light(2LL * 8192 * 8192 * 8192, 3LL * 8192 * 8192 * 2, 800e12, 4.3e12);
  ASSERT_TRUE(gemm);
  EXPECT_NEAR(gemm->ms, 1e3 * 2.0 * 8192 * 8192 * 8192 / 800e12, 1e-9);
  EXPECT_TRUE(gemm->compute_bound);
  // A ReLU over 2.4 GB in and out: memory bound.
  auto relu = speed_of_light(600'000'000, 4'800'000'000, 60e12, 4.3e12);
  ASSERT_TRUE(relu);
  EXPECT_NEAR(relu->ms, 1e3 * 4.8e9 / 4.3e12, 1e-9);
  EXPECT_FALSE(relu->compute_bound);
  EXPECT_FALSE(speed_of_light(1, 1, 0.0, 4.3e12));  // no rate measured for the precision
}

}  // namespace
}  // namespace kforge::stats
