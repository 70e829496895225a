#pragma once
// The precision-downcast check: the candidate's error measured against an fp64 reference.
#include <pybind11/pybind11.h>
#include <torch/extension.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "worker/tensors.hpp"

namespace kforge::worker {

namespace py = pybind11;

struct PrecisionCheck {
  bool ran = false;
  std::string skipped;      // why it did not run (the reference cannot run in fp64), when !ran
  double reference_error = 0;  // max |fp32 reference - fp64 reference| / scale, over floating outputs
  double candidate_error = 0;  // max |candidate - fp64 reference| / scale
  bool downcast = false;       // the candidate's error is of a lower precision than fp32's
  std::string message;         // when downcast: the figures and the output

  // Past 5% of an output's largest value a result is wrong rather than computed in a lower
  // precision (bf16's rounding is 2^-9; long bf16 reductions stay well under 5%), unless the fp32
  // reference errs about as far: a training step whose ReLU follows a TF32 convolution flips
  // the mask wherever TF32's rounding crosses zero, and its gradients there are off by whole
  // terms (level6/22 on the H200: the reference 9.1% from fp64). Such a problem cannot hold a
  // candidate to fp64 closer than its own reference is.
  static constexpr double kWrong = 0.05;
  bool wrong() const { return ran && candidate_error > kWrong && candidate_error > 2 * reference_error; }

  // Each output's error as a whole, |x - fp64| / |fp64| (2-norms), for the reference and the
  // candidate; -1 where not measured (integer or non-fp32 outputs).
  std::vector<double> reference_norm_error, candidate_norm_error;
  // Whether the candidate is at least about as exact as the reference on every measured output
  // (its norm error within twice the reference's, or under 2^-20, fp32's own summation noise),
  // and output `failed` (the one the comparison failed on) is one of them. A candidate more
  // exact than its reference differs from it by the reference's own error: cuDNN's TF32
  // convolutions (PyTorch's default) put exact fp32 ones 1e-3 off on the H200, ten times fp32's
  // atol (docs/benchmarks.md, session 21), and a training step's ReLU flips where the
  // reference's rounding crosses zero.
  bool at_least_as_exact(size_t failed) const;
};

// Runs the reference model once more in fp64 (its fp32 parameters and buffers as fp64 copies,
// through torch.func.functional_call; the model itself is untouched) on fp64 copies of `inputs`,
// and measures both fp32 results against it, relative to the largest |value| of each output. A
// training step (python/kforge_train.py) runs its own fp64 step, gradients included. `roles`
// names the outputs in the message (compare_outputs's names).
// A candidate is a downcast when its error exceeds both 64 times the fp32 reference's and 2^-14
// (fp32 rounding errs near 2^-24 per operation; TF32 keeps 10 mantissa bits, bf16 7: their
// errors sit at 2^-11 and above).
PrecisionCheck check_against_fp64(const py::object& reference_model, const py::list& inputs,
                                  const std::vector<at::Tensor>& reference_outputs,
                                  const std::vector<at::Tensor>& candidate_outputs,
                                  const std::vector<ComparedTensor>& roles = {});

// Each measured output's error against fp64 as a whole, the candidate's and the reference's ("norm
// error vs fp64 3.4e-07, the reference's 2.8e-04"); only output `only`'s where it is one of them.
std::string describe_norm_errors(const PrecisionCheck& check, size_t only = SIZE_MAX);

// For a candidate found at least as exact as the reference: how far each output may differ from
// the reference's from now on, as a share of its norm: four times what it differs by in these
// outputs, at most 2^-6 (0 for outputs that are not floating). That is the reference's own error,
// which a replayed or skipped result exceeds by orders of magnitude; the timing's recheck holds
// every timed call to it. Empty when an output differs by more than 2^-6 (no reference that far
// off is one to hold anything to).
std::optional<std::vector<double>> exactness_limits(const std::vector<at::Tensor>& reference,
                                                    const std::vector<at::Tensor>& candidate);

}  // namespace kforge::worker
