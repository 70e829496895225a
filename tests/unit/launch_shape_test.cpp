// A launch's theoretical occupancy and waves (src/metrics/launch_shape.hpp), against figures worked
// by hand with CUDA's occupancy rules for an H100/H200 SM (64 warps, 32 blocks, 64K registers in
// four partitions given in 256-register units per warp, 228 KiB of shared memory, 1 KiB reserved
// per block).
#include "metrics/launch_shape.hpp"

#include <gtest/gtest.h>

namespace kforge::census {
namespace {

LaunchShape shape(int64_t grid, int block, int registers, int64_t dynamic_shared = 0, int64_t local = 0) {
  LaunchShape s;
  s.grid_x = grid;
  s.block_x = block;
  s.registers_per_thread = registers;
  s.dynamic_shared_bytes = dynamic_shared;
  s.local_bytes_per_thread = local;
  return s;
}

TEST(LaunchShape, ASmallKernelIsLimitedByWarpsAndCountsItsWaves) {
  const Occupancy o = occupancy(shape(4096, 256, 32), SmLimits{});
  EXPECT_EQ(o.blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(o.theoretical, 1.0);
  EXPECT_EQ(o.limiter, "warps");
  EXPECT_NEAR(o.waves, 4096.0 / (8 * 132), 1e-12);
}

TEST(LaunchShape, RegistersLimitInWholeWarpsPerPartition) {
  // 128 registers: 4096 a warp, 4 warps per partition, 16 per SM: 2 blocks of 8 warps.
  Occupancy o = occupancy(shape(1000, 256, 128), SmLimits{});
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(o.theoretical, 0.25);
  EXPECT_EQ(o.limiter, "registers");
  // 40 registers: 1280 a warp, 12 warps per partition (not 12.8), 48 per SM: 6 blocks, 75%.
  o = occupancy(shape(1000, 256, 40), SmLimits{});
  EXPECT_EQ(o.blocks_per_sm, 6);
  EXPECT_DOUBLE_EQ(o.theoretical, 0.75);
  EXPECT_EQ(o.limiter, "registers");
}

TEST(LaunchShape, SharedMemoryAndBlockCountLimitToo) {
  // 48 KiB + 1 KiB reserved a block: 4 blocks of 4 warps.
  Occupancy o = occupancy(shape(1000, 128, 32, 48 * 1024), SmLimits{});
  EXPECT_EQ(o.blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(o.theoretical, 0.25);
  EXPECT_EQ(o.limiter, "shared memory");
  // One-warp blocks: 32 blocks at most, half the warps.
  o = occupancy(shape(1000, 32, 16), SmLimits{});
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_DOUBLE_EQ(o.theoretical, 0.5);
  EXPECT_EQ(o.limiter, "blocks");
}

TEST(LaunchShape, TheDescriptionNamesSpillsAndABlockThatCannotFit) {
  const std::string text = describe(shape(264, 256, 64, 0, 96), SmLimits{});
  EXPECT_EQ(text,
            "grid 264x1x1 of 256 threads (256x1x1), 64 registers/thread, 0 B shared, 96 B local memory per thread "
            "(register spills or local arrays); theoretical occupancy 50% (limited by registers), 0.5 waves over 132 SMs");
  // 255 registers for 1024 threads: 8 warps per SM by registers, fewer than the block's 32.
  EXPECT_NE(describe(shape(10, 1024, 255), SmLimits{}).find("cannot fit on one SM"), std::string::npos);
  EXPECT_EQ(describe(LaunchShape{}, SmLimits{}), "launch shape not recorded");
}

}  // namespace
}  // namespace kforge::census
