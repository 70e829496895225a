#pragma once
// Tensor work of an evaluation, in ATen: moving and cloning forward arguments, checking that
// inputs were not modified, normalising and comparing outputs.
#include <ATen/ATen.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "core/tolerances.hpp"

namespace kforge::worker {

namespace py = pybind11;

// Forward arguments are Python objects: tensors and plain scalars, in order.

// Whether a floating tensor is cast to the evaluation precision: fp32 and fp64, the types of
// ordinary torch.randn output. A narrower type a problem chose on purpose (fp16, bf16, fp8) stays.
bool casts_to_precision(at::ScalarType type);

// Tensors moved to `device`, those casts_to_precision names cast to `dtype`, made contiguous.
py::list prepare_arguments(const py::list& raw, const at::Device& device, at::ScalarType dtype);
py::list clone_arguments(const py::list& args);

// Index of the first tensor argument whose contents differ from `before`, with how many
// elements changed; empty when none did.
struct Mutation {
  size_t argument = 0;
  int64_t changed = 0;
};
std::optional<Mutation> find_mutation(const py::list& before, const py::list& after);

// A forward's result as a list of tensors: a tensor, or a tuple/list of tensors. Anything else
// (a subclass, a scalar, a list holding non-tensors) is described in `error`.
struct Outputs {
  std::vector<at::Tensor> tensors;
  std::string error;
  bool subclass = false;  // the error is a tensor subclass: a lazy or faked result, rule `tensor-subclass`
};
Outputs normalize_outputs(const py::object& result);
// torch.Tensor's and nn.Parameter's types as they are now, which normalize_outputs then takes as
// the plain ones: called before any candidate code runs in the process, so a candidate that rebinds
// torch.Tensor (or has torch's C module take another class as it) does not make its subclass plain.
void remember_plain_tensor_types();

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};
// The per-dtype defaults (REFERENCE.md section 3): fp32/fp64 1e-4, fp16/bf16 1e-2.
Tolerance default_tolerance(at::ScalarType dtype);

struct Comparison {
  bool match = true;
  std::string message;  // why not, naming the output, the count and the first bad element
  // When not: the output it failed on, and whether only its finite values were off (not its
  // shape, dtype, count, NaN or Inf): what the fp64 check may yet find more exact than the reference.
  size_t failed = 0;
  bool values_only = false;
  double max_abs_error = 0;
  double max_rel_error = 0;  // |cand - ref| / max(|ref|, atol)
};

// The summation-order noise an fp32 output, an fp32 gradient and a bf16/fp16 gradient admit
// (src/core/tolerances.hpp gives the reasons).
inline constexpr double kFp32OrderNoise = share_of_largest(kFp32OrderNoiseLog2);
inline constexpr double kFp32GradientOrderNoise = share_of_largest(kFp32GradientOrderNoiseLog2);
inline constexpr double kHalfGradientOrderNoise = share_of_largest(kHalfGradientOrderNoiseLog2);
// A gradient's whole error, as a share of its norm (the reasons are at the constants).
inline constexpr double kFp32GradientNormError = share_of_largest(kFp32GradientNormErrorLog2);
inline constexpr double kHalfGradientNormError = share_of_largest(kHalfGradientNormErrorLog2);

// What each compared tensor is (its name in messages, "output 1" by default), the summation-
// order noise its fp32 comparison admits, and whether its default atol scales with it: a
// gradient's scale is the loss's choice (a mean over 16,384 tokens makes every element of it
// smaller than fp32's atol of 1e-4, so an absolute atol would pass zeros), so it is compared at its
// own scale, atol times its largest |value| where that is under 1; and its error as a whole is
// held to a share of its norm (kFp32GradientNormError), which zeros in place of its many small
// elements exceed.
struct ComparedTensor {
  std::string name;
  double order_noise = kFp32OrderNoise;
  bool atol_at_own_scale = false;
  // Set once the candidate was found more exact than the reference (PrecisionCheck::
  // at_least_as_exact): its finite values may then differ from the reference's elementwise, by at
  // most this share of the reference's norm as a whole (0: never).
  double norm_limit = 0;
};
// The roles of `count` plain outputs, as compare_outputs names them by default.
std::vector<ComparedTensor> default_roles(size_t count);
Comparison compare_outputs(const std::vector<at::Tensor>& reference, const std::vector<at::Tensor>& candidate,
                           std::optional<double> atol, std::optional<double> rtol,
                           const std::vector<ComparedTensor>& roles = {});

// Fills the CUDA caching allocator's free blocks with NaN, so memory a candidate takes without
// writing (empty() that should have been filled) reads as NaN rather than stale valid results.
void poison_free_cuda_memory();

std::string describe_shape(const at::Tensor& t);
std::string describe_shape(at::IntArrayRef shape);

}  // namespace kforge::worker
