#pragma once
// The fixed texts the CUDA splitter (cuda_split.hpp) adds to the parts it writes.
namespace kforge::build::split {

inline constexpr const char* kLauncher = R"(
// kforge: what `kernel<<<grid, block, smem, stream>>>(args)` does, without nvcc: the arguments
// converted to the kernel's parameter types, then cudaLaunchKernel on the kernel's host stub.
namespace kforge_split {
template <class... Params>
struct Launch {
  void (*kernel)(Params...);
  dim3 grid, block;
  size_t shared_bytes;
  cudaStream_t stream;
  template <class... Args>
  void operator()(Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params), "a kernel launched with the wrong number of arguments");
    auto values = std::tuple<std::remove_cv_t<std::remove_reference_t<Params>>...>(std::forward<Args>(args)...);
    std::apply([&](auto&... v) {
      void* slots[] = {const_cast<void*>(static_cast<const void*>(&v))..., nullptr};
      cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, slots, shared_bytes, stream);
    }, values);
  }
};
template <class... Params>
Launch<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared_bytes = 0,
                         cudaStream_t stream = 0) {
  return {kernel, grid, block, shared_bytes, stream};
}
}  // namespace kforge_split
)";

// What the device part includes for them: ATen's accessor header alone (a few c10 headers; nvcc
// compiles a kernel with it in about 3.6 s against 63 s for a whole build) and the torch:: names
// torch/types.h would have given them.
inline constexpr const char* kDeviceAccessors = R"(#include <ATen/core/TensorAccessor.h>
namespace torch {  // kforge: the accessor names torch/types.h gives torch::
using at::DefaultPtrTraits;
using at::GenericPackedTensorAccessor;
using at::PackedTensorAccessor32;
using at::PackedTensorAccessor64;
using at::RestrictPtrTraits;
using at::TensorAccessor;
}  // namespace torch
)";

// torch defines RestrictPtrTraits for nvcc only (`T* __restrict__`), so a host part compiled by
// g++ that names it (a launch's `x.packed_accessor32<scalar_t, 2, torch::RestrictPtrTraits>()`, a
// kernel's declaration) defines it as torch would, where torch would: the accessor passed to the
// kernel has the same layout and the same mangled type on both sides.
inline constexpr const char* kHostRestrictPtrTraits = R"(
#if !defined(__CUDACC__) && !defined(__HIPCC__)
// kforge: RestrictPtrTraits, which torch defines for nvcc only, defined as torch does
#if __has_include(<torch/headeronly/core/TensorAccessor.h>)
namespace torch::headeronly {
template <typename T>
struct RestrictPtrTraits {
  typedef T* __restrict__ PtrType;
};
}  // namespace torch::headeronly
namespace at {
using torch::headeronly::RestrictPtrTraits;
}  // namespace at
#else
namespace at {
template <typename T>
struct RestrictPtrTraits {
  typedef T* __restrict__ PtrType;
};
}  // namespace at
#endif
#endif
)";

}  // namespace kforge::build::split
