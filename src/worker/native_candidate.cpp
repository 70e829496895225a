#include "worker/native_candidate.hpp"

#include <dlfcn.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>

#include <limits>
#include <stdexcept>

#if KFORGE_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace kforge::worker {
namespace {

kforge_dtype to_kforge(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return KFORGE_FLOAT32;
    case at::kHalf: return KFORGE_FLOAT16;
    case at::kBFloat16: return KFORGE_BFLOAT16;
    case at::kDouble: return KFORGE_FLOAT64;
    case at::kLong: return KFORGE_INT64;
    case at::kInt: return KFORGE_INT32;
    case at::kBool: return KFORGE_BOOL;
    case at::kByte: return KFORGE_UINT8;
    default: throw std::runtime_error(std::string("dtype ") + c10::toString(t) + " has no kforge_dtype");
  }
}

// The view of a tensor the C interface gets; the tensor must outlive the call.
kforge_tensor view_of(const at::Tensor& t) {
  return {t.data_ptr(), to_kforge(t.scalar_type()), static_cast<int32_t>(t.dim()), t.sizes().data(), t.numel()};
}

}  // namespace

NativeCandidate::NativeCandidate(const std::string& library, std::vector<double> init_scalars,
                                 std::vector<std::pair<std::string, at::Tensor>> params, std::vector<OutputSpec> outputs,
                                 bool cuda)
    : init_scalars_(std::move(init_scalars)), params_(std::move(params)), outputs_(std::move(outputs)), cuda_(cuda) {
  handle_ = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) throw std::runtime_error(std::string("cannot load the candidate's library: ") + ::dlerror());
  using VersionFn = int (*)();
  auto version = reinterpret_cast<VersionFn>(::dlsym(handle_, "kforge_interface_version"));
  forward_ = reinterpret_cast<kforge_forward_fn>(::dlsym(handle_, "kforge_forward"));
  if (!version || !forward_)
    throw std::runtime_error("the library exports no kforge_interface_version/kforge_forward (use KFORGE_CANDIDATE)");
  int v = version();
  if (v < 1 || v > KFORGE_INTERFACE_VERSION)
    throw std::runtime_error("the candidate states interface version " + std::to_string(v) + "; this kforge knows 1.." +
                             std::to_string(KFORGE_INTERFACE_VERSION));
  for (auto& [name, tensor] : params_) tensor = tensor.contiguous();
}

NativeCandidate::~NativeCandidate() {
  if (handle_) ::dlclose(handle_);
}

py::object NativeCandidate::call(const py::args& args) {
  std::vector<at::Tensor> inputs;
  std::vector<double> scalars;
  for (auto item : args) {
    if (THPVariable_Check(item.ptr())) {
      inputs.push_back(THPVariable_Unpack(item.ptr()).contiguous());
    } else if (py::isinstance<py::bool_>(item) || py::isinstance<py::int_>(item) || py::isinstance<py::float_>(item)) {
      scalars.push_back(item.cast<double>());
    } else {
      throw std::runtime_error("forward argument of type " + py::str(py::type::of(item).attr("__name__")).cast<std::string>() +
                               " cannot be passed to a native candidate");
    }
  }
  auto device = cuda_ ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU);
  std::vector<at::Tensor> outputs;
  for (const auto& spec : outputs_) {
    at::Tensor out = at::empty(spec.shape, at::TensorOptions().dtype(spec.dtype).device(device));
    // Poisoned: an element the candidate does not write fails the comparison.
    if (poison_outputs_) {
      if (at::isFloatingType(spec.dtype)) out.fill_(std::numeric_limits<double>::quiet_NaN());
      else if (spec.dtype == at::kBool) out.fill_(true);
      else out.fill_(spec.dtype == at::kByte ? 0xA5 : -0x5A5A5A5A);
    }
    outputs.push_back(out);
  }
  std::vector<kforge_tensor> input_views, param_views, output_views;
  std::vector<const char*> names;
  for (const auto& t : inputs) input_views.push_back(view_of(t));
  for (const auto& [name, t] : params_) {
    names.push_back(name.c_str());
    param_views.push_back(view_of(t));
  }
  for (const auto& t : outputs) output_views.push_back(view_of(t));

  kforge_context ctx{};
  ctx.interface_version = KFORGE_INTERFACE_VERSION;
  ctx.num_inputs = static_cast<int32_t>(input_views.size());
  ctx.inputs = input_views.data();
  ctx.num_scalars = static_cast<int32_t>(scalars.size());
  ctx.scalars = scalars.data();
  ctx.num_init_scalars = static_cast<int32_t>(init_scalars_.size());
  ctx.init_scalars = init_scalars_.data();
  ctx.num_params = static_cast<int32_t>(param_views.size());
  ctx.param_names = names.data();
  ctx.params = param_views.data();
  ctx.num_outputs = static_cast<int32_t>(output_views.size());
  ctx.outputs = output_views.data();
#if KFORGE_WITH_CUDA
  if (cuda_) {
    ctx.stream = c10::cuda::getCurrentCUDAStream().stream();
    ctx.cublas_handle = at::cuda::getCurrentCUDABlasHandle();
  }
#endif
  char error[1024] = {0};
  int rc = forward_(&ctx, error, sizeof error - 1);
  if (rc != 0)
    throw std::runtime_error("kforge_forward returned " + std::to_string(rc) + (error[0] ? std::string(": ") + error : ""));
  if (outputs.size() == 1) return py::cast(outputs[0]);
  py::tuple result(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) result[i] = py::cast(outputs[i]);
  return result;
}

void NativeCandidate::register_type(py::module_& m) {
  py::class_<NativeCandidate>(m, "NativeCandidate").def("__call__", &NativeCandidate::call);
}

std::vector<OutputSpec> output_specs_of(const py::object& reference_result) {
  std::vector<OutputSpec> specs;
  auto add = [&](const py::handle& h) {
    if (!THPVariable_Check(h.ptr())) throw std::runtime_error("the reference returns a non-tensor");
    at::Tensor t = THPVariable_Unpack(h.ptr());
    specs.push_back({t.sizes().vec(), t.scalar_type()});
  };
  if (py::isinstance<py::tuple>(reference_result) || py::isinstance<py::list>(reference_result))
    for (auto item : reference_result) add(item);
  else
    add(reference_result);
  return specs;
}

}  // namespace kforge::worker
