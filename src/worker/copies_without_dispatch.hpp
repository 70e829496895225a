#pragma once
// kforge's own tensor copies in a candidate's process (a call's inputs out of the exchange arena,
// its outputs into it, its changed inputs back), made without the dispatcher. Through it they are
// the candidate's to intercept: a TorchDispatchMode left on the stack, the Python dispatcher, or a
// kernel of its own registered for aten::copy_ (torch.library) runs candidate code inside kforge's
// copy. Found by a red-team pass in session 35 (tests/adversarial/defer_work_into_output_copy.py,
// hide_input_mutation_from_copy_back.py): a forward that returned an empty tensor at once and did
// its work in the copy of its outputs, after its clock stopped (7-16x for a true 1x on the CPU), and
// a dropped copy-back that hid an in-place mutation of its inputs from the input-mutation check.
#include <ATen/core/Tensor.h>

namespace kforge::worker {

// `dst` gets `src`'s values (same shape and dtype; `dst` is an arena view or a copy of kforge's):
// ATen's own copy called directly, with the Python dispatch keys excluded for anything it calls in
// turn. Throws std::runtime_error for a source that has no memory of its own to copy (a ZeroTensor,
// a wrapper subclass), whose values only dispatched code would make.
void copy_without_dispatch(const at::Tensor& dst, const at::Tensor& src);

// A contiguous copy of `src` in memory of this process's own, made the same way.
at::Tensor clone_without_dispatch(const at::Tensor& src);

}  // namespace kforge::worker
