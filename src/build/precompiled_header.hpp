#pragma once
// The precompiled torch/extension.h that every load_inline host unit includes: parsing torch's
// headers is most of a host compile, so it is done once per compiler, torch and PCH-relevant flag
// set, and shared by every later build (and by concurrent kforge processes, under a lock).
#include <filesystem>
#include <string>
#include <vector>

#include "build/build_service.hpp"

namespace kforge::build {

// The host flags a precompiled header is made with, and keyed by: `cflags` less what GCC lets
// differ between making and using it, so candidates that differ only there share one. Checked
// with g++ 14's -Winvalid-pch on torch/extension.h: a header made at -O3 serves -O1, -O2 and -O3
// (not -O0, which defines __NO_INLINE__), with or without -funroll-loops, warning flags (-W..., -w)
// and repeated flags. Kept: everything that defines a macro or changes the target (-fopenmp:
// _OPENMP; -ffast-math, -march=native: -mieee-fp, -mabm; -DNDEBUG; -g's debug info), and the module
// name is dropped (torch's headers never read it). GCC checks every use again, so a flag missed
// here costs a slower compile (the header parsed in full), never a wrong one. Include folders GCC
// does not check; the one dropped is the CUDA toolkit's, which a CUDA extension's flags add after
// torch's folders and from which torch/extension.h reaches nothing (a CPU extension's header is
// made without it), so a CPU extension and a CUDA extension's host part share one header.
std::vector<std::string> precompiled_header_flags(const std::vector<std::string>& cflags);

// The folder to put first on the include path so that `#include <torch/extension.h>` finds a
// precompiled `torch/extension.h.gch` for these flags; built on first use. Empty when none can be
// made (the build then goes on without it, only slower), and when another build is making it now
// (this one does not wait for it). `note` says which header it is, and whether this call built it.
std::filesystem::path torch_pch_dir(BuildService& service, const std::vector<std::string>& cflags,
                                    const std::string& torch_version, bool whole, std::string& note);

}  // namespace kforge::build
