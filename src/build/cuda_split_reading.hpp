#pragma once
// What the CUDA splitter (cuda_split.hpp) reads in a candidate's source, one question each: where
// code and brackets are, which headers and namespaces only nvcc can have, what torch's dispatch
// macros run a kernel with, and which template argument a launch leaves to deduction.
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kforge::build::split {

// Thrown when the source has a shape the splitter does not handle; the caller builds it whole.
struct GiveUp {
  std::string why;
};

// The source with comments and the insides of string and character literals blanked (same
// length, newlines kept), so structure is read from code only and offsets match the original.
std::string code_mask(const std::string& s);

// Whether `word` appears in `text` as a whole identifier.
bool has_word(const std::string& text, const std::string& word);

// Index of the bracket closing the one at `open` (same kind), in the mask.
size_t matching(const std::string& m, size_t open, size_t end);

// Torch's own headers (and pybind11's): the device part never sees them.
bool is_torch_include(const std::string& line);

// Headers only nvcc can read, or only finds (CUDA 13 keeps CUB and libcu++ under include/cccl,
// which nvcc adds and g++ is not given): the host part never needs them, since host code that
// calls what they declare (CUB's or Thrust's device-wide algorithms) is built whole anyway.
bool is_device_only_include(const std::string& line);

// `using namespace nvcuda;`, `namespace cg = cooperative_groups;`, `using nvcuda::wmma::fragment;`:
// names those headers declare for nvcc only (mma.h declares nvcuda under __CUDACC__ alone).
bool names_a_device_only_namespace(const std::string& code);

// Whether code names torch, ATen, c10 or pybind11 (a `Tensor`, an `AT_` macro): host code.
bool mentions_torch(const std::string& code);

// `__global__ void k(...) __launch_bounds__(256)` -> `void k(...)`: what host code needs to name
// the kernel's host stub.
std::string host_declaration(std::string head);

// The types each AT_DISPATCH macro runs its lambda with (scalar_t), as ATen defines them. The
// _AND variants add the types their first arguments name; Half and BFloat16 are c10's, whose
// headers the device part then includes (nvcc has torch's include paths; these two headers are
// small). Complex types are not handled.
const std::map<std::string, std::vector<std::string>>& dispatch_types();

// How many leading arguments of an AT_DISPATCH macro name extra scalar types.
int extra_type_arguments(const std::string& macro);

// The C++ type an extra dispatch argument (`at::ScalarType::Half`, `at::kBFloat16`, `torch::kHalf`)
// names; empty when it is not one the device part can have.
std::string c10_type_named(const std::string& argument);

// `ops::fill` -> `fill`: the name a kernel or variable was declared by, however it is qualified.
std::string unqualified_name(const std::string& name);

// `text` with every whole word `word` replaced by `by`.
std::string replace_word(const std::string& text, const std::string& word, const std::string& by);

// A template kernel: nvcc gives the host stub of each instance internal linkage, so the host part
// cannot name it. The device part defines, per instance the host part launches, a specialisation
// of `kforge_split_address_<name>` that returns the stub's address; the host part declares the
// template and launches through it.
struct TemplateKernel {
  std::string parameters;              // "typename scalar_t, int BLOCK"
  std::vector<std::string> function_parameters;  // "const scalar_t* __restrict__ x", "int n"
  std::vector<std::string> namespaces;  // the openers of the namespaces it is declared in
  std::set<std::string> instances;      // template argument lists the host part launches
};

// The parts of text[from, to) between its top-level commas, trimmed: brackets nest, and with
// `angles` a template's angle brackets too (a parameter list; a macro call's arguments, which
// the preprocessor splits inside `k<1, 2>`, without).
std::vector<std::string> top_level_parts(const std::string& text, const std::string& mask, size_t from, size_t to,
                                         bool angles = true);

// The template argument nvcc would deduce for a launch written without one, where that is
// plain: a kernel of one type parameter T, and every pointer-to-T parameter given a tensor's
// `data_ptr<TYPE>()` (or `data<TYPE>()`, or a `(TYPE*)` cast), every T taken by value a
// temporary `TYPE()` or `TYPE{}` (a functor), all of one TYPE. Empty otherwise
// (the caller gives up: the whole build deduces as nvcc does).
std::string deduced_argument(const TemplateKernel& kernel, const std::vector<std::string>& arguments);

// Torch's tensor accessors, which kernels written after PyTorch's extension tutorial take as
// parameters (`torch::PackedTensorAccessor32<scalar_t, 2, torch::RestrictPtrTraits>`).
bool uses_tensor_accessors(const std::string& code);

}  // namespace kforge::build::split
