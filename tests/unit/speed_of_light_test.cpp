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
