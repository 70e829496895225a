#pragma once
// Training problems (a problem file that sets `mode = "train"`; docs/evaluation.md, "Training
// problems"), as the reference process drives them: the reference model wrapped in a training
// step (python/kforge_train.py) whose call is forward and backward, the grad_outputs each call
// takes after the problem's inputs, and what each tensor of a step's result is.
#include <ATen/ATen.h>
#include <pybind11/pybind11.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "worker/tensors.hpp"

namespace kforge::worker {

namespace py = pybind11;

bool is_training_problem(const py::module_& problem);

class TrainingStep {
 public:
  // `model` wrapped in a step; `probe` (the problem's inputs, no grad_outputs) shows which inputs
  // are floating and how many floating outputs the forward returns.
  TrainingStep(const py::module_& problem, const py::object& model, const py::list& probe);

  const py::object& step() const { return step_; }  // call it with inputs_with_grad_outputs(...)
  // The problem's `inputs` followed by the grad_outputs the forward's floating outputs take at the
  // problem's current sizes, drawn from `seed` on `device_name`. Output shapes are found once per
  // size (`sizes` names it: "" for the benchmark's), by a forward without gradients on a copy of
  // `inputs`.
  py::list inputs_with_grad_outputs(const py::list& inputs, uint64_t seed, const std::string& sizes,
                                    const std::string& device_name);
  // Each tensor of the step's result: the forward's outputs, then gradients (which admit more
  // summation-order noise, tensors.hpp).
  const std::vector<ComparedTensor>& roles() const { return roles_; }
  // What the candidate's process needs to make the same step of its model (candidate_host.cpp).
  nlohmann::json request() const;

 private:
  // The plain model's forward on a copy of `inputs`, gradients off: what shapes the grad_outputs.
  py::object forward_without_gradients(const py::list& inputs) const;

  py::object model_;
  py::object step_;
  std::vector<int> grad_inputs_;
  int grad_outputs_ = 0;
  std::vector<ComparedTensor> roles_;
  std::map<std::string, py::object> specs_by_sizes_;  // kforge_train.floating_output_specs per size
};

}  // namespace kforge::worker
