#include "worker/training.hpp"

#include <c10/core/GradMode.h>
#include <pybind11/stl.h>

#include "core/seeds.hpp"
#include "worker/failure.hpp"
#include "worker/python_bridge.hpp"

namespace kforge::worker {
namespace {

py::module_ train_module() { return py::module_::import("kforge_train"); }

// The grad_outputs' own stream of draws, apart from the inputs' (the same trial seed feeds both).
constexpr uint64_t kGradOutputSalt = 0x6a09e667f3bcc909ULL;

}  // namespace

bool is_training_problem(const py::module_& problem) {
  return train_module().attr("is_training_problem")(problem).cast<bool>();
}

TrainingStep::TrainingStep(const py::module_& problem, const py::object& model, const py::list& probe) : model_(model) {
  py::module_ train = train_module();
  py::object chosen = guarded(Verdict::load_error, "problem: grad_inputs",
                              [&] { return train.attr("gradient_inputs")(problem, probe); });
  for (auto i : chosen) grad_inputs_.push_back(i.cast<int>());
  py::object result = forward_without_gradients(probe);
  py::object specs = train.attr("floating_output_specs")(result);
  specs_by_sizes_[""] = specs;
  grad_outputs_ = static_cast<int>(py::len(specs));
  if (grad_outputs_ == 0)
    throw Failure{Verdict::load_error, "problem: a training problem's forward returns no floating output to differentiate", ""};
  step_ = train.attr("TrainStep")(model_, chosen, grad_outputs_);
  // The forward's outputs, counted from the result's shape (one tensor, or a sequence).
  const int outputs = py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result) ? static_cast<int>(py::len(result)) : 1;
  for (auto label : step_.attr("labels")(outputs)) {
    std::string name = label.cast<std::string>();
    const bool gradient = roles_.size() >= static_cast<size_t>(outputs);
    roles_.push_back({name, gradient ? kFp32GradientOrderNoise : kFp32OrderNoise, gradient});
  }
}

py::list TrainingStep::inputs_with_grad_outputs(const py::list& inputs, uint64_t seed, const std::string& sizes,
                                                const std::string& device_name) {
  auto known = specs_by_sizes_.find(sizes);
  if (known == specs_by_sizes_.end())
    known = specs_by_sizes_.emplace(sizes, train_module().attr("floating_output_specs")(forward_without_gradients(inputs))).first;
  py::list out;
  for (auto a : inputs) out.append(a);
  py::object drawn = train_module().attr("grad_outputs")(known->second, seed_bits(seed ^ kGradOutputSalt), device_name);
  for (auto g : drawn) out.append(g);
  return out;
}

py::object TrainingStep::forward_without_gradients(const py::list& inputs) const {
  return guarded(Verdict::runtime_error, "the reference Model.forward raised", [&] {
    c10::AutoGradMode no_grad(false);
    return model_(*py::tuple(clone_arguments(inputs)));
  });
}

nlohmann::json TrainingStep::request() const {
  nlohmann::json parameters = nlohmann::json::array();
  for (auto item : step_.attr("parameter_shapes")()) {
    py::list pair = py::reinterpret_borrow<py::list>(item);
    parameters.push_back({pair[0].cast<std::string>(), pair[1].cast<std::vector<int64_t>>()});
  }
  return {{"grad_inputs", grad_inputs_}, {"grad_outputs", grad_outputs_}, {"parameters", parameters}};
}

}  // namespace kforge::worker
