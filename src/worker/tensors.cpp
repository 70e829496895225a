#include "worker/tensors.hpp"

#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>

#include <cmath>
#include <cstdio>

#include "worker/fused_compare.hpp"
#include "worker/timer.hpp"

#if KFORGE_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace kforge::worker {
namespace {

bool is_tensor(const py::handle& h) { return THPVariable_Check(h.ptr()); }
at::Tensor to_tensor(const py::handle& h) { return THPVariable_Unpack(h.ptr()); }

// No iostreams here: on the H200 (2026-11-30) the worker segfaulted on exactly the comparison paths
// that formatted with std::ostringstream and not on the others; snprintf touches no locale.
std::string format_index(const at::Tensor& t, int64_t flat) {
  std::vector<int64_t> index(t.dim());
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    index[d] = flat % std::max<int64_t>(t.size(d), 1);
    flat /= std::max<int64_t>(t.size(d), 1);
  }
  std::string out = "[";
  for (size_t i = 0; i < index.size(); ++i) out += (i ? ", " : "") + std::to_string(index[i]);
  return out + "]";
}

std::string format_value(double v, int digits = 6) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

}  // namespace

std::string describe_shape(at::IntArrayRef shape) {
  std::string out = "[";
  for (size_t d = 0; d < shape.size(); ++d) out += (d ? ", " : "") + std::to_string(shape[d]);
  return out + "]";
}

std::string describe_shape(const at::Tensor& t) { return describe_shape(t.sizes()); }

bool casts_to_precision(at::ScalarType type) { return type == at::kFloat || type == at::kDouble; }

py::list prepare_arguments(const py::list& raw, const at::Device& device, at::ScalarType dtype) {
  py::list out;
  for (auto item : raw) {
    if (!is_tensor(item)) {
      out.append(item);
      continue;
    }
    at::Tensor t = to_tensor(item).to(device);
    if (casts_to_precision(t.scalar_type()) && t.scalar_type() != dtype) t = t.to(dtype);
    out.append(py::cast(t.contiguous()));
  }
  return out;
}

py::list clone_arguments(const py::list& args) {
  py::list out;
  for (auto item : args) out.append(is_tensor(item) ? py::cast(to_tensor(item).clone()) : py::reinterpret_borrow<py::object>(item));
  return out;
}

std::optional<Mutation> find_mutation(const py::list& before, const py::list& after) {
  for (size_t i = 0; i < std::min(py::len(before), py::len(after)); ++i) {
    if (!is_tensor(before[i]) || !is_tensor(after[i])) continue;
    at::Tensor a = to_tensor(before[i]), b = to_tensor(after[i]);
    if (a.sizes() != b.sizes() || a.scalar_type() != b.scalar_type())
      return Mutation{i, a.numel()};
    if (at::equal(a, b)) continue;  // one fused pass on the common path
    // NaN-aware: positions that were NaN and still are count as unchanged.
    at::Tensor same = a.is_floating_point() ? (a == b) | (a.isnan() & b.isnan()) : (a == b);
    int64_t changed = a.numel() - same.sum().item<int64_t>();
    if (changed > 0) return Mutation{i, changed};
  }
  return std::nullopt;
}

namespace {
PyTypeObject* plain_tensor_type = nullptr;
PyTypeObject* parameter_type = nullptr;
}  // namespace

void remember_plain_tensor_types() {
  plain_tensor_type = reinterpret_cast<PyTypeObject*>(THPVariableClass);
  parameter_type = reinterpret_cast<PyTypeObject*>(ParameterClass);
}

Outputs normalize_outputs(const py::object& result) {
  Outputs out;
  auto plain_tensor = [&](const py::handle& h, const std::string& what) {
    if (!is_tensor(h)) {
      out.error = what + " is a " + py::str(py::type::of(h).attr("__name__")).cast<std::string>() + ", not a tensor";
      return false;
    }
    // A tensor subclass can defer its work or fake its values: only torch.Tensor itself counts.
    if (!plain_tensor_type) remember_plain_tensor_types();
    if (Py_TYPE(h.ptr()) != plain_tensor_type && Py_TYPE(h.ptr()) != parameter_type) {
      out.error = what + " is a tensor subclass (" + py::str(py::type::of(h).attr("__name__")).cast<std::string>() +
                  "), not a plain torch.Tensor: its values could be computed later or faked";
      out.subclass = true;
      return false;
    }
    out.tensors.push_back(to_tensor(h));
    return true;
  };
  if (PyTuple_Check(result.ptr()) || PyList_Check(result.ptr())) {
    // The items as the sequence holds them (PyTuple_GET_ITEM, PyList_GET_ITEM), taken before any
    // is looked at, never through its methods: a subclass's __iter__ or __getitem__ is candidate
    // code, which could do the call's work while kforge reads the result (a torch.return_types
    // tuple, a subclass too, holds its items as a tuple does).
    std::vector<py::object> items;
    const bool tuple = PyTuple_Check(result.ptr());
    const Py_ssize_t n = tuple ? PyTuple_GET_SIZE(result.ptr()) : PyList_GET_SIZE(result.ptr());
    for (Py_ssize_t i = 0; i < n; ++i)
      items.push_back(py::reinterpret_borrow<py::object>(tuple ? PyTuple_GET_ITEM(result.ptr(), i) : PyList_GET_ITEM(result.ptr(), i)));
    for (size_t i = 0; i < items.size(); ++i)
      if (!plain_tensor(items[i], "output " + std::to_string(i))) return out;
    if (out.tensors.empty()) out.error = "the result is an empty sequence";
    return out;
  }
  plain_tensor(result, "the result");
  return out;
}

// kFp32OrderNoise (src/core/tolerances.hpp): a one-thread-per-row sum of 32,768 normal values is off by about
// 2^-17.6 of the largest output, a tree reduction by 2^-22 (level1/7_Sum_Dim on the H200: 1.9e-4 on
// outputs up to ~800, beyond atol 1e-4). 2^-16 of the output's largest value admits those and
// stays 32 times below TF32's rounding (2^-11), which the fp64 check rejects anyway.

Tolerance default_tolerance(at::ScalarType dtype) {
  switch (dtype) {
    case at::kHalf:
    case at::kBFloat16: return {1e-2, 1e-2};
    default: return {1e-4, 1e-4};
  }
}

std::vector<ComparedTensor> default_roles(size_t count) {
  std::vector<ComparedTensor> roles;
  for (size_t i = 0; i < count; ++i) roles.push_back({count == 1 ? "output" : "output " + std::to_string(i)});
  return roles;
}

namespace {

// An integer or boolean output, which must match exactly: why not, or nothing.
std::optional<std::string> compare_exact(const std::string& name, const at::Tensor& r, const at::Tensor& k, Comparison& c) {
  at::Tensor differ = (r != k);
  int64_t bad = differ.sum().item<int64_t>();
  double max_abs = r.scalar_type() == at::kBool ? double(bad > 0)
                                                : (r.to(at::kDouble) - k.to(at::kDouble)).abs().max().item<double>();
  c.max_abs_error = std::max(c.max_abs_error, max_abs);
  c.max_rel_error = std::max(c.max_rel_error, max_abs);
  if (bad == 0) return std::nullopt;
  int64_t first = differ.flatten().to(at::kInt).argmax().item<int64_t>();
  return name + ": " + std::to_string(bad) + " of " + std::to_string(r.numel()) +
         " elements differ (integer outputs must match exactly); first at " + format_index(r, first) + ": expected " +
         format_value(r.flatten()[first].item<double>()) + ", got " + format_value(k.flatten()[first].item<double>());
}

// Why a floating output failed, and whether only its finite values were off (Comparison::values_only).
struct Mismatch {
  std::string message;
  bool values_only = false;
};

// A failing floating output's values, in the order a reader needs them: NaN or Inf the reference
// lacks, then finite values where it has them, then how many elements are out of tolerance and
// the first of them. `rw`, `kw` in the comparison's working type; `close` elementwise.
Mismatch describe_floating_failure(const std::string& name, const at::Tensor& r, const at::Tensor& rw, const at::Tensor& kw,
                                   const at::Tensor& close, double atol, double rtol, double max_abs) {
  at::Tensor r_nan = rw.isnan(), k_nan = kw.isnan(), r_inf = rw.isinf(), k_inf = kw.isinf();
  at::Tensor same = (kw == rw);
  int64_t new_nan = (k_nan & ~r_nan).sum().item<int64_t>();
  int64_t new_inf = (k_inf & ~(r_inf & same)).sum().item<int64_t>();
  int64_t lost_special = ((r_nan & ~k_nan) | (r_inf & ~same)).sum().item<int64_t>();
  if (new_nan > 0) return {name + " has " + std::to_string(new_nan) + " NaN value(s) where the reference has none"};
  if (new_inf > 0) return {name + " has " + std::to_string(new_inf) + " Inf value(s) where the reference has none"};
  if (lost_special > 0)
    return {name + " has " + std::to_string(lost_special) + " finite value(s) where the reference has NaN or Inf"};
  at::Tensor bad = ~close;
  int64_t n_bad = bad.sum().item<int64_t>();
  int64_t first = bad.flatten().to(at::kInt).argmax().item<int64_t>();
  return {name + ": " + std::to_string(n_bad) + " of " + std::to_string(r.numel()) + " elements differ beyond atol=" +
              format_value(atol, 3) + " + rtol=" + format_value(rtol, 3) + "*|ref|; max abs error " +
              format_value(max_abs, 3) + "; first at " + format_index(r, first) + ": expected " +
              format_value(rw.flatten()[first].item<double>()) + ", got " + format_value(kw.flatten()[first].item<double>()),
          true};
}

// A floating output against the reference's within the tolerance its dtype and role give (or the
// user's): why not, or nothing. Adds its error figures to `c` either way.
std::optional<Mismatch> compare_floating(const ComparedTensor& role, const at::Tensor& r, const at::Tensor& k,
                                         std::optional<double> atol_override, std::optional<double> rtol_override,
                                         Comparison& c) {
  const std::string& name = role.name;
  Tolerance tol = default_tolerance(r.scalar_type());
  double atol = atol_override.value_or(tol.atol), rtol = rtol_override.value_or(tol.rtol);
  // Work in float32 (half types upcast, float64 kept): rounding |cand - ref| in float32 costs
  // ~1e-7 relative, three orders under the tightest tolerance, while float64 copies of a 1 GB
  // output cost many passes over 2 GB in every trial.
  at::ScalarType work = r.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  at::Tensor rw = r.scalar_type() == work ? r : r.to(work);
  at::Tensor kw = k.scalar_type() == work ? k : k.to(work);
  // The passing path of a CUDA output in one pass (worker/fused_compare.hpp): every pair finite
  // and within tolerance gives the same error figures as the operations below. A gradient's
  // tolerance waits for its own scale, and anything not passing takes the path below, which says why.
  if (!role.atol_at_own_scale) {
    const std::optional<CloseFigures> fused = fused_close_figures(rw, kw, rtol, atol, std::max(atol, 1e-30));
    if (fused && fused->non_finite == 0 && fused->not_close == 0) {
      c.max_abs_error = std::max(c.max_abs_error, fused->max_abs);
      c.max_rel_error = std::max(c.max_rel_error, fused->max_rel);
      return std::nullopt;
    }
  }
  // The passing path in few passes: |cand - ref| against atol + rtol * |ref| where both are
  // finite. Non-finite values (rare) take the exact path below, where NaN matching NaN and equal
  // infinities count as close (torch.isclose with equal_nan).
  at::Tensor diff = (kw - rw).abs();
  at::Tensor scale = rw.abs();
  // The reference's largest finite |value|, read at most once (a pass over the tensor): a
  // gradient's own scale and the order noise both take it.
  std::optional<double> largest_finite;
  auto largest = [&] {
    if (!largest_finite)
      largest_finite = at::where(rw.isfinite(), scale, at::zeros({}, scale.options())).max().item<double>();
    return *largest_finite;
  };
  if (role.atol_at_own_scale && !atol_override) atol *= std::min(largest(), 1.0);
  bool finite = kw.isfinite().all().item<bool>() && rw.isfinite().all().item<bool>();
  auto close_within = [&](double a) {
    return finite ? diff <= scale * rtol + a : at::isclose(kw, rw, rtol, a, /*equal_nan=*/true);
  };
  at::Tensor close = close_within(atol);
  const bool half = r.scalar_type() == at::kHalf || r.scalar_type() == at::kBFloat16;
  const double order_noise = r.scalar_type() == at::kFloat            ? role.order_noise
                             : half && role.atol_at_own_scale ? kHalfGradientOrderNoise
                                                               : 0.0;
  if (order_noise > 0 && !atol_override && !close.all().item<bool>()) {
    // With the default atol: an error within the tensor's order noise (fp32: kFp32OrderNoise of
    // an output's largest value, kFp32GradientOrderNoise of a gradient's; a bf16 or fp16
    // gradient kHalfGradientOrderNoise) is a different order of additions or roundings, not a
    // wrong value (the reasons are at the constants). Only tensors whose values reach past
    // atol / noise are affected, and measured only when the plain comparison failed.
    if (largest() * order_noise > atol) {
      atol = largest() * order_noise;
      close = close_within(atol);
    }
  }
  if (!finite) diff = at::nan_to_num(diff, 0.0, 0.0, 0.0);  // error figures over finite pairs only
  double max_abs = diff.max().item<double>();
  double max_rel = at::nan_to_num(diff / scale.clamp_min_(std::max(atol, 1e-30)), 0.0, 0.0, 0.0).max().item<double>();
  c.max_abs_error = std::max(c.max_abs_error, max_abs);
  c.max_rel_error = std::max(c.max_rel_error, max_rel);
  if (close.all().item<bool>()) {
    // A gradient whose elements each pass may still be wrong as a whole: its many small
    // elements lie under a tolerance set by its largest (tolerances.hpp). With the default atol
    // and finite values only (a NaN matched by NaN has no norm).
    const double norm_share = !role.atol_at_own_scale || atol_override || !finite ? 0.0
                              : r.scalar_type() == at::kFloat                    ? kFp32GradientNormError
                              : half                                             ? kHalfGradientNormError
                                                                                 : 0.0;
    if (norm_share > 0) {
      const double error_norm = diff.norm().item<double>(), reference_norm = rw.norm().item<double>();
      if (error_norm > norm_share * reference_norm)
        return Mismatch{name + ": every element lies within atol=" + format_value(atol, 3) + " + rtol=" +
                            format_value(rtol, 3) + "*|ref|, but the error's norm is " +
                            format_value(error_norm / reference_norm, 3) + " of the gradient's norm (at most " +
                            format_value(norm_share, 3) +
                            "): its small elements are wrong together, as when part of a gradient is skipped or zeroed",
                        true};
    }
    return std::nullopt;
  }
  Mismatch failure = describe_floating_failure(name, r, rw, kw, close, atol, rtol, max_abs);
  if (failure.values_only && role.norm_limit > 0 && finite) {
    // A candidate found more exact than the reference: held to the reference as a whole.
    const double reference_norm = rw.norm().item<double>();
    if (reference_norm > 0 && diff.norm().item<double>() <= role.norm_limit * reference_norm) return std::nullopt;
  }
  return failure;
}

}  // namespace

Comparison compare_outputs(const std::vector<at::Tensor>& reference, const std::vector<at::Tensor>& candidate,
                           std::optional<double> atol_override, std::optional<double> rtol_override,
                           const std::vector<ComparedTensor>& roles) {
  Comparison c;
  auto fail = [&](std::string message) {
    c.match = false;
    c.message = std::move(message);
    return c;
  };
  if (reference.size() != candidate.size())
    return fail("returned " + std::to_string(candidate.size()) + " output(s), the reference returns " +
                std::to_string(reference.size()));
  const auto defaults = roles.size() < reference.size() ? default_roles(reference.size()) : std::vector<ComparedTensor>{};
  for (size_t i = 0; i < reference.size(); ++i) {
    const at::Tensor& r = reference[i];
    const at::Tensor& k = candidate[i];
    const ComparedTensor& role = i < roles.size() ? roles[i] : defaults[i];
    const std::string& name = role.name;
    if (r.sizes() != k.sizes())
      return fail(name + " has shape " + describe_shape(k) + ", expected " + describe_shape(r));
    if (r.scalar_type() != k.scalar_type())
      return fail(name + " has dtype " + std::string(c10::toString(k.scalar_type())) + ", expected " +
                  c10::toString(r.scalar_type()));
    if (r.device() != k.device()) return fail(name + " is on " + k.device().str() + ", expected " + r.device().str());
    if (r.numel() == 0) continue;
    if (!r.is_floating_point() && !r.is_complex()) {
      if (std::optional<std::string> why = compare_exact(name, r, k, c)) return fail(*why);
      continue;
    }
    if (std::optional<Mismatch> why = compare_floating(role, r, k, atol_override, rtol_override, c)) {
      if (why->values_only) {
        c.failed = i;
        c.values_only = true;
      }
      return fail(why->message);
    }
  }
  return c;
}

void poison_free_cuda_memory() {
#if KFORGE_WITH_CUDA
  // Every free block of the caching allocator, filled in place with 0xFF bytes (NaN in every
  // floating type, -1 in every signed integer). In place, so poisoning allocates nothing: the
  // first version allocated one block the size of the whole free cache, which the allocator could
  // not carve from its segments, so reserved memory doubled every trial until the device was full
  // (H200, 2.4 GB ReLU: 24, 40, 73, 138 GB reserved, and 459 ms for the fifth trial's poison).
  // The allocator's own snapshot, without the stack traces: torch.cuda.memory_snapshot() builds a
  // Python dict per block, which cost more than the fills.
  const auto snapshot = c10::cuda::CUDACachingAllocator::snapshot({0, 0}, /*include_traces=*/false);
  // cudaMemsetAsync, not a dispatched fill_, which a candidate's dispatch mode could skip.
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream().stream();
  for (const auto& segment : snapshot.segments) {
    // Blocks are listed in address order and tile their segment; a block neither allocated nor
    // waiting on a stream is free ("inactive" in memory_snapshot's words).
    uintptr_t address = segment.address;
    for (const auto& block : segment.blocks) {
      if (!block.active && block.size > 0)
        C10_CUDA_CHECK(cudaMemsetAsync(reinterpret_cast<void*>(address), 0xFF, block.size, stream));
      address += block.size;
    }
  }
  synchronize_device(true);  // the candidate may read it from any stream
#endif
}

}  // namespace kforge::worker
