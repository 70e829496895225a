#pragma once
// Which devices this machine offers, asked of the CUDA driver directly (dlopen of libcuda), so
// kforge knows before starting any worker whether `--device cuda` can be honoured.
#include <string>
#include <vector>

namespace kforge {

struct CudaDevices {
  int count = 0;
  std::string why_none;  // when count == 0: the driver's reason, for the error message
  // What to put in a worker's CUDA_VISIBLE_DEVICES for device ordinal i (respects a parent
  // CUDA_VISIBLE_DEVICES list).
  std::vector<std::string> visible_ids;
};

CudaDevices probe_cuda_devices();

// The nvcc target for CUDA device `ordinal` (as the process sees it): "sm_90a" for compute
// capability 9.0 (Hopper's arch-specific features: wgmma, TMA), "sm_100a" for 10.0, else "sm_XY".
// Empty with the reason in `why` when the driver cannot say.
std::string cuda_arch_of(int ordinal, std::string* why = nullptr);

}  // namespace kforge
