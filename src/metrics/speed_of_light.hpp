#pragma once
// The memory speed of light: no kernel computes a result faster than the device can read its
// inputs and write its outputs once. A measured time below that floor means the timer did not
// see all of the candidate's work (a hole in the measurement, not a fast kernel), and the
// candidate is rejected with rule `speed-of-light` (REFERENCE.md sections 4 and 8).
#include <cstdint>
#include <optional>

namespace kforge::stats {

// The device's peak is above its measured copy rate (a device-to-device copy reaches about 85%
// of the HBM peak on an H200): the floor is taken at this many times the measured rate, so an
// honest kernel at the true peak stays above it.
constexpr double kCopyRateMargin = 1.25;

// The floor in ms for moving `bytes` (inputs read once, outputs written once) at
// kCopyRateMargin x `copy_bytes_per_s`; nothing when either is unknown (0), as on a CPU.
std::optional<double> memory_floor_ms(int64_t bytes, double copy_bytes_per_s);

// The compute floor is a bound no honest kernel can cross, so it is generous twice over:
// - the rate: the SMs at their highest clock, each doing kTensorFlopsPerSmClock, more than the
//   densest tensor-core precision that could pass kforge's tolerances does on any NVIDIA GPU
//   so far (fp8, dense: 8192 on Hopper, about 15500 on Blackwell; an fp32 problem computed
//   accurately gets far less);
// - the work: the reference's FLOPs (torch.utils.flop_counter: matmuls, convolutions,
//   attention) divided by kAlgorithmicSaving, more than Winograd's F(4x4,3x3) (4x fewer
//   multiplies) or Strassen-like schemes save.
// It adds to the memory floor for compute-bound problems, where the bytes are few.
constexpr double kTensorFlopsPerSmClock = 16384;
constexpr double kAlgorithmicSaving = 8;

// The compute floor in ms for `flops` on `sm_count` SMs clocked at most at `max_sm_mhz`; nothing
// when any is unknown (0).
std::optional<double> compute_floor_ms(int64_t flops, int sm_count, double max_sm_mhz);

// The larger of the two floors, with what bounds it; nothing when neither is known.
struct Floor {
  double ms = 0;
  bool compute = false;  // the compute floor is the larger
};
std::optional<Floor> rejection_floor(std::optional<double> memory_ms, std::optional<double> compute_ms);

// A problem's speed-of-light time (SOL-ExecBench's T_SOL, REFERENCE.md section 4) in ms: the
// longer of its FLOPs at the device's matmul rate for its precision and its minimum bytes
// (inputs and parameters read once, outputs written once) at the device's copy rate, both rates
// as measured on the device (python/kforge_peaks.py). No margin: it is the bound a score is
// measured against, not a rejection floor. Nothing when a rate is unknown (0).
struct SpeedOfLight {
  double ms = 0;
  bool compute_bound = false;  // the FLOPs term is the longer one
};
// `fast_flops` of the `flops` may run at `fast_flops_per_s` instead (an fp32 problem's
// convolutions and recurrent layers, which cuDNN may run on TF32 tensor cores by PyTorch's
// default); 0: none.
std::optional<SpeedOfLight> speed_of_light(int64_t flops, int64_t bytes, double flops_per_s, double copy_bytes_per_s,
                                           int64_t fast_flops = 0, double fast_flops_per_s = 0);

}  // namespace kforge::stats
