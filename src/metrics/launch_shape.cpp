#include "metrics/launch_shape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace kforge::census {
namespace {

int64_t round_up(int64_t value, int64_t unit) { return unit > 0 ? (value + unit - 1) / unit * unit : value; }

std::string bytes_text(int64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes / 1024);
  if (bytes >= 1024) return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{} B", bytes);
}

}  // namespace

Occupancy occupancy(const LaunchShape& shape, const SmLimits& sm) {
  Occupancy o;
  const int threads = shape.threads_per_block();
  if (threads <= 0 || sm.max_warps <= 0) return o;
  const int warps_per_block = (threads + 31) / 32;
  constexpr int kUnlimited = std::numeric_limits<int>::max();

  // Each limit as CUDA's occupancy calculator computes it: whole blocks only.
  const int by_warps = sm.max_warps / warps_per_block;
  const int by_blocks = sm.max_blocks;
  int by_registers = kUnlimited;
  if (shape.registers_per_thread > 0) {
    const int64_t per_warp = round_up(int64_t{shape.registers_per_thread} * 32, sm.register_unit);
    const int64_t warps_per_partition = (sm.registers / std::max(sm.sub_partitions, 1)) / per_warp;
    by_registers = static_cast<int>(warps_per_partition * std::max(sm.sub_partitions, 1) / warps_per_block);
  }
  int by_shared = kUnlimited;
  const int64_t shared = shape.static_shared_bytes + shape.dynamic_shared_bytes;
  const int64_t per_block = round_up(shared + sm.reserved_shared_per_block, sm.shared_unit);
  if (per_block > 0) by_shared = static_cast<int>(sm.shared_bytes / per_block);

  // The first limit reached names it; ties go to the one a kernel writer can act on first.
  o.blocks_per_sm = by_warps;
  o.limiter = "warps";
  auto consider = [&](int limit, const char* name) {
    if (limit < o.blocks_per_sm) {
      o.blocks_per_sm = limit;
      o.limiter = name;
    }
  };
  consider(by_blocks, "blocks");
  consider(by_registers, "registers");
  consider(by_shared, "shared memory");
  o.blocks_per_sm = std::max(o.blocks_per_sm, 0);
  o.theoretical = std::min(1.0, double(o.blocks_per_sm) * warps_per_block / sm.max_warps);
  const int64_t resident = int64_t{o.blocks_per_sm} * std::max(sm.sm_count, 1);
  o.waves = resident > 0 ? double(shape.blocks()) / double(resident) : 0;
  return o;
}

std::string describe(const LaunchShape& shape, const SmLimits& sm) {
  if (!shape.recorded()) return "launch shape not recorded";
  const Occupancy o = occupancy(shape, sm);
  const int64_t shared = shape.static_shared_bytes + shape.dynamic_shared_bytes;
  std::string local = shape.local_bytes_per_thread > 0
                          ? fmt::format("{} local memory per thread (register spills or local arrays)",
                                        bytes_text(shape.local_bytes_per_thread))
                          : std::string("no local memory");
  std::string text = fmt::format("grid {}x{}x{} of {} threads ({}x{}x{}), {} registers/thread, {} shared, {}",
                                 shape.grid_x, shape.grid_y, shape.grid_z, shape.threads_per_block(), shape.block_x,
                                 shape.block_y, shape.block_z, shape.registers_per_thread, bytes_text(shared), local);
  if (o.blocks_per_sm == 0)
    return text + "; it cannot fit on one SM";
  return text + fmt::format("; theoretical occupancy {:.0f}% (limited by {}), {:.1f} waves over {} SMs",
                            o.theoretical * 100, o.limiter, o.waves, sm.sm_count);
}

}  // namespace kforge::census
