#pragma once
// A native candidate (include/kforge/candidate.h) loaded from its shared library and made callable
// like a model: NativeCandidate(*inputs) returns the outputs, which the harness allocated with the
// reference's shapes and dtypes and poisoned before the call.
#include <ATen/ATen.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "kforge/candidate.h"

namespace kforge::worker {

namespace py = pybind11;

struct OutputSpec {
  std::vector<int64_t> shape;
  at::ScalarType dtype = at::kFloat;
};

class NativeCandidate {
 public:
  // Loads the library (RTLD_LOCAL: two candidates' symbols never meet) and checks the interface
  // version it states. `params` are the reference model's state_dict entries, by name.
  NativeCandidate(const std::string& library, std::vector<double> init_scalars,
                  std::vector<std::pair<std::string, at::Tensor>> params, std::vector<OutputSpec> outputs, bool cuda);
  ~NativeCandidate();
  NativeCandidate(const NativeCandidate&) = delete;  // owns the dlopen handle
  NativeCandidate& operator=(const NativeCandidate&) = delete;

  py::object call(const py::args& args);

  // Outputs are poisoned for the correctness trials; the timing phase turns it off, since the
  // fill is a full write of every output that the reference does not pay for.
  void set_poison_outputs(bool on) { poison_outputs_ = on; }

  static void register_type(py::module_& m);

 private:
  void* handle_ = nullptr;
  kforge_forward_fn forward_ = nullptr;
  std::vector<double> init_scalars_;
  std::vector<std::pair<std::string, at::Tensor>> params_;
  std::vector<OutputSpec> outputs_;
  bool cuda_ = false;
  bool poison_outputs_ = true;
};

// Shapes and dtypes of a reference result (a tensor or a tuple/list of tensors).
std::vector<OutputSpec> output_specs_of(const py::object& reference_result);

}  // namespace kforge::worker
