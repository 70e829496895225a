#pragma once
// A problem file as both processes of an evaluation use it: building a model the way upstream
// does (seeded with 42, on the device, cast to the precision), and, in the reference process
// only, the checked inputs from a seed and the sizes a problem declares for the CPU and for the
// extra-size trials.
#include <ATen/ATen.h>
#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

#include "core/job_kinds.hpp"

namespace kforge::worker {

namespace py = pybind11;

// fp32 | fp16 | bf16, the job's precision, as the dtype floating tensors are cast to.
at::ScalarType dtype_of(Precision precision);

// cls(*init_args) right after seeding 42, on `device`, its fp32/fp64 parameters and buffers cast to `dtype`.
py::object build_model(const py::object& cls, const py::list& init_args, const std::string& device,
                       at::ScalarType dtype);

// get_init_inputs() after seeding 42, moved to the device and cast.
py::list init_arguments(const py::module_& problem, const std::string& device_name, const at::Device& device,
                        at::ScalarType dtype);

// get_inputs() after seeding `seed`, checked (tensors and plain numbers only), moved and cast.
// `args`: what get_inputs takes (a multi-rank problem's rank and world size; none otherwise).
py::list fresh_inputs(const py::module_& problem, uint64_t seed, const std::string& device_name,
                      const at::Device& device, at::ScalarType dtype, const py::tuple& args = py::tuple());

// On the CPU, the module constants a problem's `cpu_sizes` names take those values.
void apply_cpu_sizes(const py::module_& problem);

// The other sizes a problem declares (`extra_sizes`, on the CPU `cpu_extra_sizes` where given).
std::vector<py::dict> extra_sizes_of(const py::module_& problem, bool cuda);

// Sets a problem's constants for as long as it lives, then puts the old values back.
class SizesApplied {
 public:
  SizesApplied(const py::module_& problem, const py::dict& sizes) : problem_(problem) {
    for (auto [key, value] : sizes) {
      saved_.emplace_back(py::str(key), problem_.attr(key));
      problem_.attr(key) = value;
      text_ += (text_.empty() ? "" : ", ") + std::string(py::str(key)) + "=" + std::string(py::str(value));
    }
  }
  ~SizesApplied() {
    for (auto& [name, value] : saved_) problem_.attr(name) = value;
  }
  SizesApplied(const SizesApplied&) = delete;
  SizesApplied& operator=(const SizesApplied&) = delete;
  const std::string& describe() const { return text_; }

 private:
  py::module_ problem_;
  std::vector<std::pair<py::str, py::object>> saved_;
  std::string text_;
};


}  // namespace kforge::worker
