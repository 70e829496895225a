#pragma once
// Which of kforge's environment variables reach processes that run code of a candidate's choosing:
// its workers (and through them the zygote and every candidate's process), the load_inline
// prebuild's import, and the compilers of every candidate build (whose flags or source may run or
// read what they like: `-B DIR/`, `.incbin`).
#include <string_view>

namespace kforge {

// Whether an entry ("NAME=value") passes: what Python, torch, CUDA, Triton and the compilers read,
// never a name that looks like a credential (KEY, TOKEN, SECRET, PASSWORD, ...), whatever its prefix.
bool passes_to_candidate_code(std::string_view entry);

}  // namespace kforge
