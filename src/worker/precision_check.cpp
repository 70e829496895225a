#include "worker/precision_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "worker/tensors.hpp"

namespace kforge::worker {
namespace {

constexpr double kCandidateToReference = 64.0;
const double kFloor = std::ldexp(1.0, -14);

py::object as_fp64(const py::handle& item) {
  if (!THPVariable_Check(item.ptr())) return py::reinterpret_borrow<py::object>(item);
  const at::Tensor& t = THPVariable_Unpack(item.ptr());
  return py::cast(t.scalar_type() == at::kFloat ? t.detach().to(at::kDouble) : t);
}

std::string format(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", v);
  return buf;
}

// The reference's result in fp64: a training step (python/kforge_train.py) runs its own fp64 step,
// gradients included; a model runs through functional_call on fp64 copies of its state.
py::object run_in_fp64(const py::object& reference_model, const py::list& inputs) {
  if (py::hasattr(reference_model, "fp64_step")) return reference_model.attr("fp64_step")(*py::tuple(inputs));
  py::dict state;
  for (const char* which : {"named_parameters", "named_buffers"})
    for (auto item : reference_model.attr(which)()) {
      py::tuple kv = py::reinterpret_borrow<py::tuple>(item);
      state[kv[0]] = as_fp64(kv[1]);
    }
  py::list args;
  for (auto item : inputs) args.append(as_fp64(item));
  return py::module_::import("torch.func").attr("functional_call")(reference_model, state, py::tuple(args));
}

}  // namespace

PrecisionCheck check_against_fp64(const py::object& reference_model, const py::list& inputs,
                                  const std::vector<at::Tensor>& reference_outputs,
                                  const std::vector<at::Tensor>& candidate_outputs,
                                  const std::vector<ComparedTensor>& roles) {
  PrecisionCheck check;
  std::vector<at::Tensor> exact;
  try {
    Outputs normal = normalize_outputs(run_in_fp64(reference_model, inputs));
    if (!normal.error.empty()) {
      check.skipped = "the fp64 reference's " + normal.error;
      return check;
    }
    exact = std::move(normal.tensors);
  } catch (py::error_already_set& e) {
    // A model keeping fp32 tensors outside its parameters and buffers, or an op without an fp64
    // kernel: the check cannot run, and says so.
    check.skipped = std::string("the reference does not run in fp64: ") + e.what();
    check.skipped = check.skipped.substr(0, check.skipped.find('\n'));
    return check;
  }
  if (exact.size() != reference_outputs.size() || exact.size() != candidate_outputs.size()) {
    check.skipped = "the fp64 reference returned a different number of outputs";
    return check;
  }
  check.reference_norm_error.assign(exact.size(), -1.0);
  check.candidate_norm_error.assign(exact.size(), -1.0);
  for (size_t i = 0; i < exact.size(); ++i) {
    const at::Tensor& e = exact[i];
    if (e.scalar_type() != at::kDouble || e.numel() == 0) continue;  // integer or non-fp32 outputs
    if (e.sizes() != candidate_outputs[i].sizes() || e.sizes() != reference_outputs[i].sizes()) continue;
    // Over the fp64 reference's finite elements. Where all are (the common case) no mask is
    // applied, and the difference is taken with the fp32 side promoted as it is read rather than
    // copied to fp64 first: the same values in fewer passes over an output that can be 1 GB.
    at::Tensor finite = at::isfinite(e);
    at::Tensor zero = at::zeros({}, e.options());
    const bool all_finite = finite.all().item<bool>();
    at::Tensor e_finite = all_finite ? e : at::where(finite, e, zero);
    double scale = e_finite.abs().max().item<double>();
    if (!(scale > 0)) continue;
    const double norm = e_finite.norm().item<double>();
    auto error_of = [&](const at::Tensor& t, double* norm_error) {
      at::Tensor diff = at::sub(t, e).abs_();  // computed in fp64: t's values promoted exactly
      if (!all_finite) diff = at::where(finite, diff, zero);
      *norm_error = diff.norm().item<double>() / norm;
      return diff.max().item<double>() / scale;
    };
    double ref_err = error_of(reference_outputs[i], &check.reference_norm_error[i]);
    double cand_err = error_of(candidate_outputs[i], &check.candidate_norm_error[i]);
    check.ran = true;
    check.reference_error = std::max(check.reference_error, ref_err);
    check.candidate_error = std::max(check.candidate_error, cand_err);
    if (!check.downcast && cand_err > kCandidateToReference * ref_err && cand_err > kFloor) {
      check.downcast = true;
      check.message = (i < roles.size() ? roles[i].name : "output " + std::to_string(i)) + " is off the fp64 reference by " + format(cand_err) +
                      " of its largest value, the fp32 reference by " + format(ref_err) +
                      ": a lower precision than fp32 (TF32, bf16 or fp16 arithmetic)";
    }
  }
  if (!check.ran && check.skipped.empty()) check.skipped = "no floating output";
  return check;
}

std::string describe_norm_errors(const PrecisionCheck& check, size_t only) {
  std::string text;
  for (size_t i = 0; i < check.candidate_norm_error.size(); ++i) {
    if (check.candidate_norm_error[i] < 0 || (only < check.candidate_norm_error.size() && i != only)) continue;
    char figures[96];
    std::snprintf(figures, sizeof figures, "%snorm error vs fp64 %.1e, the reference's %.1e", text.empty() ? "" : "; ",
                  check.candidate_norm_error[i], check.reference_norm_error[i]);
    text += figures;
  }
  return text;
}

std::optional<std::vector<double>> exactness_limits(const std::vector<at::Tensor>& reference,
                                                    const std::vector<at::Tensor>& candidate) {
  const double most = std::ldexp(1.0, -6);
  std::vector<double> limits(reference.size(), 0.0);
  for (size_t i = 0; i < reference.size() && i < candidate.size(); ++i) {
    if (!reference[i].is_floating_point() || reference[i].sizes() != candidate[i].sizes()) continue;
    // In fp32 (no fp64 copies of GB-sized outputs): a norm's ratio needs no more.
    const at::ScalarType work = reference[i].scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
    at::Tensor r = reference[i].to(work), k = candidate[i].to(work);
    const double norm = r.norm().item<double>();
    if (!(norm > 0) || !std::isfinite(norm)) continue;
    const double share = (k - r).norm().item<double>() / norm;
    if (!std::isfinite(share) || share > most) return std::nullopt;
    limits[i] = std::min(4 * share, most);
  }
  return limits;
}

bool PrecisionCheck::at_least_as_exact(size_t failed) const {
  if (!ran || failed >= candidate_norm_error.size() || candidate_norm_error[failed] < 0) return false;
  const double fp32_noise = std::ldexp(1.0, -20);
  for (size_t i = 0; i < candidate_norm_error.size(); ++i)
    if (candidate_norm_error[i] >= 0 && candidate_norm_error[i] > std::max(2 * reference_norm_error[i], fp32_noise))
      return false;
  return true;
}

}  // namespace kforge::worker
