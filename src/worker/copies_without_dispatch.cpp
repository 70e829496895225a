#include "worker/copies_without_dispatch.hpp"

#include <ATen/EmptyTensor.h>
#include <ATen/ops/copy_native.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <stdexcept>

#if KFORGE_WITH_CUDA
#include <ATen/cuda/EmptyTensor.h>
#endif

namespace kforge::worker {
namespace {

// What reaches Python code from the dispatcher: a mode's or a subclass's __torch_dispatch__ (Python,
// PythonTLSSnapshot) and kernels the Python dispatcher holds (PythonDispatcher).
c10::DispatchKeySet python_keys() {
  return c10::DispatchKeySet({c10::DispatchKey::Python, c10::DispatchKey::PythonTLSSnapshot,
                              c10::DispatchKey::PythonDispatcher});
}

}  // namespace

void copy_without_dispatch(const at::Tensor& dst, const at::Tensor& src) {
  if (src._is_zerotensor() || !src.has_storage())
    throw std::runtime_error("an output without memory of its own (a ZeroTensor or a wrapper tensor)");
  c10::impl::ExcludeDispatchKeyGuard no_python(python_keys());
  at::Tensor target = dst;  // a handle: the copy writes dst's memory
  at::native::copy_(target, src, /*non_blocking=*/false);
}

at::Tensor clone_without_dispatch(const at::Tensor& src) {
  at::Tensor own;
#if KFORGE_WITH_CUDA
  if (src.is_cuda())
    own = at::detail::empty_cuda(src.sizes(), src.scalar_type(), src.device(), std::nullopt);
#endif
  if (!own.defined()) {
    if (!src.is_cpu()) throw std::runtime_error("a tensor on " + src.device().str() + ", not the CPU or a GPU");
    own = at::detail::empty_cpu(src.sizes(), src.scalar_type());
  }
  copy_without_dispatch(own, src);
  return own;
}

}  // namespace kforge::worker
