#pragma once
// A kernel launch's shape (grid, block, registers, shared and local memory, as CUPTI's kernel
// activity record gives it) and what it implies on one SM: the theoretical occupancy and what
// limits it, and how many waves the grid takes. This is the part of an Nsight Compute "Launch
// Statistics" and "Occupancy" section that needs no hardware counter, so it costs nothing beyond
// the census call that already records the launches (issue 20's profiler digest). No CUDA here:
// worker/launch_recorder fills it, and the unit tests feed it by hand.
#include <cstdint>
#include <string>

namespace kforge::census {

struct LaunchShape {
  int64_t grid_x = 0, grid_y = 1, grid_z = 1;
  int block_x = 0, block_y = 1, block_z = 1;
  int registers_per_thread = 0;
  int64_t static_shared_bytes = 0, dynamic_shared_bytes = 0;
  int64_t local_bytes_per_thread = 0;  // spills and local arrays
  bool recorded() const { return block_x > 0 && grid_x > 0; }
  int64_t blocks() const { return grid_x * grid_y * grid_z; }
  int threads_per_block() const { return block_x * block_y * block_z; }
};

// What one SM offers, from cudaDeviceProp (defaults: an H100/H200 SM).
struct SmLimits {
  int sm_count = 132;
  int max_warps = 64;                    // maxThreadsPerMultiProcessor / warpSize
  int max_blocks = 32;                   // maxBlocksPerMultiProcessor
  int registers = 65536;                 // regsPerMultiprocessor
  int64_t shared_bytes = 233472;         // sharedMemPerMultiprocessor
  int64_t reserved_shared_per_block = 1024;  // reservedSharedMemPerBlock
  // Allocation rules of sm_70 onwards (CUDA's occupancy calculator, cuda_occupancy.h).
  int register_unit = 256;  // registers are given to a warp in units of this many
  int sub_partitions = 4;   // the register file is split among the SM's four schedulers
  int shared_unit = 128;    // shared memory is given to a block in units of this many bytes
};

struct Occupancy {
  int blocks_per_sm = 0;
  double theoretical = 0;    // active warps over the SM's maximum, 0-1
  std::string limiter;       // "warps", "blocks", "registers" or "shared memory"
  double waves = 0;          // the grid's blocks over what all SMs hold at once
};

Occupancy occupancy(const LaunchShape& shape, const SmLimits& sm);

// "grid 4096x1x1 of 256 threads, 32 registers/thread, 0 B shared, no local memory; theoretical
// occupancy 100% (limited by warps), 15.5 waves over 132 SMs"
std::string describe(const LaunchShape& shape, const SmLimits& sm);

}  // namespace kforge::census
