#pragma once
// The figures of an output comparison's passing path in one pass over the two tensors on the GPU.
//
// compare_outputs (worker/tensors.hpp) judges a float output in ATen operations: |cand - ref|,
// |ref|, both tensors' finiteness, the tolerance test, the largest absolute and relative errors,
// each a kernel of its own over the whole output with a temporary as large: about 27 output-sized
// reads and writes and a dozen host synchronisations a trial. On level 1's large outputs that was
// 69 ms of an evaluation's correctness trials (H100, session 40), nearly as much as its whole
// timing of the candidate. This kernel reads each tensor once and gives the same figures, with
// the same float operations in the same order (no fused multiply-add), so a passing output gets the
// figures compare_outputs would have printed. Anything else (an element off, a NaN or Inf, a
// half-precision or strided tensor, no NVRTC) is left to the ATen path, which says why.
//
// The kernel is compiled once per process with the NVRTC of torch's own CUDA (found beside its
// runtime library, as the launch recorder finds CUPTI) and checked on a small case with known
// answers before it is trusted; if either fails it is never used and the log says why.
#include <ATen/ATen.h>

#include <cstdint>
#include <optional>

namespace kforge::worker {

struct CloseFigures {
  int64_t not_close = 0;  // finite pairs with |cand - ref| > rtol * |ref| + atol
  int64_t non_finite = 0;  // pairs where either value is NaN or Inf (the other figures leave them out)
  double max_abs = 0;      // the largest |cand - ref| over finite pairs
  double max_rel = 0;      // the largest |cand - ref| / max(|ref|, rel_floor) over finite pairs
};

// The figures of `reference` against `candidate` (same shape and dtype), or nothing where this
// kernel does not apply or is unavailable: CUDA tensors of float32 or float64, both contiguous.
std::optional<CloseFigures> fused_close_figures(const at::Tensor& reference, const at::Tensor& candidate, double rtol,
                                                double atol, double rel_floor);

}  // namespace kforge::worker
