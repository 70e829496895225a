#pragma once
// Splits the CUDA source of a KernelBench `load_inline` candidate into a device part (kernels,
// device functions, types) that nvcc compiles without any torch header, and a host part (the
// torch wrappers that launch the kernels) that the host compiler compiles with torch's headers.
//
// Why: nvcc parses every header of a translation unit three times (cudafe++, cicc, host compiler),
// and torch's headers are over 300k lines; the kernels themselves are a few hundred. Split, the
// device pass costs what a plain CUDA file costs (docs/notes/load-inline-build-cost.md).
//
// Template kernels split too: nvcc gives each instance's host stub internal linkage, so the device
// part defines, for every instance the host part launches, a function returning the stub's
// address (`kforge_split_address_<kernel><args>`), and the host part launches through it (and
// names it there wherever else it names the instance: an occupancy query, cudaFuncSetAttribute;
// a launch through an object-like macro, `#define K kernel<4>`, is read as one of `kernel<4>`, and
// host code calling a function-like macro that launches gets the launch written out). The
// instances are the template arguments the host part writes, with scalar_t replaced by each type of the
// AT_DISPATCH macro around the launch (FLOATING, INTEGRAL, ALL, and the Half and BFloat16
// variants, for which the device part includes c10's two small headers). Kernels that take torch's
// packed accessors (PyTorch's extension tutorial's habit) get ATen's accessor header in the device
// part, and the host part, which g++ compiles, the RestrictPtrTraits torch defines for nvcc only.
// A `__constant__` or `__device__` variable that host code names (cudaMemcpyToSymbol of weights)
// is reached the same way as a template kernel's instance: nvcc's host-side shadow of it is local
// to the device part's object, which defines `kforge_split_symbol_<name>` returning its address.
// Anonymous namespaces get a name and a using-directive, static kernels lose `static`, extern "C"
// blocks are kept on both sides.
//
// A launch that leaves a one-type-parameter template kernel's argument to deduction is given it
// where it is plain: every pointer-to-T parameter gets a `data_ptr<TYPE>()` of one TYPE, every T
// taken by value a temporary `TYPE()` (a functor). A type alias local to the launching function
// or a dispatch's lambda stands for its definition in the instance; a type whose only torch names
// are at::Half or at::BFloat16 (a trait mapping them to CUDA's types) goes to both parts. Kernels
// stamped out by a function-like macro are read with its calls written out (kernel_macros.hpp).
// Headers only nvcc reads or finds (mma.h, cooperative_groups, cub/, libcu++'s cuda/) and the
// namespaces they declare stay in the device part. Kernels overloaded on their parameter types are
// launched through the overload that `decltype` of a picker, called with the launch's arguments,
// names.
//
// The split is conservative: anything it does not recognise (a template kernel launched with
// other deduced arguments or from a template function, dispatch macros it does not know, launches it
// cannot parse, raw strings, host code calling CUB's or Thrust's device-wide algorithms) makes it
// give up, and the caller builds the source as torch would,
// whole, and logs why. A split that compiles links to the same kernels the
// whole build would run: each `kernel<<<grid, block, smem, stream>>>(args)` becomes a call to
// cudaLaunchKernel on the kernel's host stub with the arguments converted to the kernel's
// parameter types, which is what nvcc's own launch code does.
#include <optional>
#include <string>

namespace kforge::build {

struct SplitSource {
  std::string device_cu;  // for nvcc: no torch headers; empty when the CUDA source is host code only
                          // (a wrapper calling ATen or cuBLAS, no kernel and no device function)
  std::string host_cpp;   // for g++: the torch wrappers, launches rewritten; starts with the
                          // torch include so a precompiled header applies
};

struct SplitAttempt {
  std::optional<SplitSource> split;
  std::string why_not;  // when split is empty: what made the splitter give up
};

// `cuda_source` is the whole cuda.cu as torch writes it (its implicit includes first).
SplitAttempt split_cuda_source(const std::string& cuda_source);

}  // namespace kforge::build
