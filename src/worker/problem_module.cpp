#include "worker/problem_module.hpp"

#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>

#include "worker/failure.hpp"
#include "worker/python_bridge.hpp"
#include "worker/tensors.hpp"

namespace kforge::worker {
namespace {

// What get_inputs() returned, checked: a list or tuple of tensors and plain numbers (what a
// forward can take from any harness). Anything else is the problem's fault, said as such, not
// the candidate's when its forward trips over it.
py::list checked_inputs(const py::object& raw) {
  if (!py::isinstance<py::list>(raw) && !py::isinstance<py::tuple>(raw))
    throw Failure{Verdict::load_error,
                  "problem: get_inputs() returned a " + std::string(py::str(py::type::handle_of(raw).attr("__name__"))) +
                      ", not a list of forward's arguments",
                  ""};
  py::list items(raw);
  for (size_t i = 0; i < items.size(); ++i) {
    py::handle item = items[i];
    bool number = py::isinstance<py::int_>(item) || py::isinstance<py::float_>(item) || py::isinstance<py::bool_>(item);
    if (THPVariable_Check(item.ptr()) || number || item.is_none()) continue;
    std::string shown = py::str(py::repr(item));
    if (shown.size() > 40) shown = shown.substr(0, 40) + "...";
    throw Failure{Verdict::load_error,
                  "problem: get_inputs()[" + std::to_string(i) + "] is a " +
                      std::string(py::str(py::type::handle_of(item).attr("__name__"))) + " (" + shown +
                      "); forward's arguments must be tensors or plain numbers",
                  ""};
  }
  return items;
}

// Module constants a problem declares other values for: `cpu_sizes = {"ROWS": 2048}` (on the
// CPU, GPU-sized problems of 1-15 ms on an H200 would take minutes per call) and `extra_sizes =
// [{"ROWS": 1000}, ...]` (other shapes a correct candidate must handle; `cpu_extra_sizes` on the
// CPU, where given). Only names the file defines, and only numbers, so a typo fails loudly.
py::dict checked_sizes(const py::module_& problem, const py::handle& sizes, const std::string& what) {
  if (!py::isinstance<py::dict>(sizes))
    throw Failure{Verdict::load_error, "problem: " + what + " must be a dict of constant name to number", ""};
  for (auto [key, value] : sizes.cast<py::dict>()) {
    std::string name = py::str(key);
    if (!py::isinstance<py::str>(key) || !py::hasattr(problem, name.c_str()))
      throw Failure{Verdict::load_error, "problem: " + what + " names " + name + ", which the file does not define", ""};
    if (!(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) || py::isinstance<py::bool_>(value))
      throw Failure{Verdict::load_error, "problem: " + what + "[" + name + "] is not a number", ""};
  }
  return sizes.cast<py::dict>();
}

}  // namespace

at::ScalarType dtype_of(Precision precision) {
  switch (precision) {
    case Precision::fp16: return at::kHalf;
    case Precision::bf16: return at::kBFloat16;
    case Precision::fp32: return at::kFloat;
  }
  return at::kFloat;
}

py::object build_model(const py::object& cls, const py::list& init_args, const std::string& device,
                       at::ScalarType dtype) {
  seed_everything(42);  // as upstream: both models see the same RNG state, so the same weights
  py::object model = call_on_device(cls, py::tuple(init_args), device);
  model = model.attr("to")(device);
  if (dtype != at::kFloat) {
    // fp32 (and fp64) parameters and buffers only: an fp8 weight a problem stores on purpose keeps its type.
    py::object cast = py::cpp_function(
        [dtype](const at::Tensor& t) -> at::Tensor { return casts_to_precision(t.scalar_type()) ? t.to(dtype) : t; });
    model.attr("_apply")(cast);
  }
  return model;
}

py::list init_arguments(const py::module_& problem, const std::string& device_name, const at::Device& device,
                        at::ScalarType dtype) {
  return guarded(Verdict::load_error, "problem: get_init_inputs() failed", [&] {
    seed_everything(42);
    py::object raw = call_on_device(problem.attr("get_init_inputs"), py::tuple(), device_name);
    return prepare_arguments(py::list(raw), device, dtype);
  });
}

py::list fresh_inputs(const py::module_& problem, uint64_t seed, const std::string& device_name,
                      const at::Device& device, at::ScalarType dtype, const py::tuple& args) {
  py::object raw = guarded(Verdict::load_error, "problem: get_inputs() failed", [&] {
    seed_everything(seed);
    return call_on_device(problem.attr("get_inputs"), args, device_name);
  });
  return guarded(Verdict::runtime_error, "problem: moving get_inputs() to " + device_name,
                 [&] { return prepare_arguments(checked_inputs(raw), device, dtype); });
}

void apply_cpu_sizes(const py::module_& problem) {
  if (!py::hasattr(problem, "cpu_sizes")) return;
  for (auto [key, value] : checked_sizes(problem, problem.attr("cpu_sizes"), "cpu_sizes"))
    problem.attr(key) = value;
}

std::vector<py::dict> extra_sizes_of(const py::module_& problem, bool cuda) {
  const char* name = !cuda && py::hasattr(problem, "cpu_extra_sizes") ? "cpu_extra_sizes" : "extra_sizes";
  std::vector<py::dict> out;
  if (!py::hasattr(problem, name)) return out;
  py::object list = problem.attr(name);
  if (!py::isinstance<py::list>(list) && !py::isinstance<py::tuple>(list))
    throw Failure{Verdict::load_error, std::string("problem: ") + name + " must be a list of dicts", ""};
  for (auto item : list) out.push_back(checked_sizes(problem, item, name));
  return out;
}

}  // namespace kforge::worker
