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

}  // namespace
}  // namespace kforge::stats
