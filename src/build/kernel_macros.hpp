#pragma once
// Kernels stamped out by a function-like macro, a habit of model-written load_inline sources:
//
//   #define DEFINE_UNARY_KERNEL(NAME, EXPR) __global__ void NAME##_kernel(const float* x, ...) { ... }
//   DEFINE_UNARY_KERNEL(sigmoid, 1.f / (1.f + expf(-v)))
//
// The kernels exist only once the macro is expanded, so the CUDA splitter (build/cuda_split.hpp)
// reads the source with every call of such a macro written out.
#include <string>

namespace kforge::build {

// `source` with each call of a function-like macro whose body defines a `__global__` function
// replaced by its expansion: the arguments put in for the parameters unexpanded, `#x` quoted and
// `a ## b` pasted as the preprocessor does, on the call's first line, the call's other newlines
// kept after it so later lines keep their numbers. The `#define` itself stays. Throws
// std::invalid_argument for what it does not expand (a variadic macro of kernels, a call with the
// wrong number of arguments), which the splitter takes as a reason to build whole.
std::string expand_kernel_macros(const std::string& source);

}  // namespace kforge::build
