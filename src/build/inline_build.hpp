#pragma once
// Builds a KernelBench `load_inline` extension through kforge's build cache, without torch's
// ninja: the same sources and flags torch would use (the worker's Python side computes them with
// torch's own functions), built faster:
//   1. the CUDA source is split (build/cuda_split.hpp): kernels go to nvcc without torch headers,
//      the torch wrappers join main.cpp in one host translation unit;
//   2. that unit is compiled against a precompiled torch/extension.h, built once per compiler,
//      torch and flag set, and shared by every later build;
//   3. if the split does not compile, the sources are built whole, as torch builds them, so a
//      candidate's verdict never depends on the fast path.
// The result is a Python extension module named as the candidate asked, in the cache entry.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build/build_service.hpp"
#include "build/inline_line_map.hpp"

namespace kforge::build {

struct InlineSpec {
  std::string name;      // the module name given to load_inline
  std::string main_cpp;  // as torch writes it: the torch include, cpp_sources, the pybind11 module
  std::string cuda_cu;   // as torch writes it, or empty when there are no CUDA sources
  std::vector<std::string> cflags;      // host compiler flags, torch's then the candidate's
  std::vector<std::string> cuda_flags;  // nvcc flags, torch's then the candidate's
  std::vector<std::string> ldflags;     // linker flags, torch's then the candidate's
  std::string torch_version;
  std::string display_name;  // the candidate, for messages
  std::vector<SourceSegment> line_map;  // where the candidate's strings are; not part of the cache key
  // Set: build whole, not split, and say this is why (python/kforge_inline.py asks so when a split
  // module fails to load: a template kernel's stub the splitter did not see named). Part of the key.
  std::string whole_because;
};

struct InlineOutcome {
  BuildOutcome build;
  std::string strategy;  // "split", "whole" or "host" (no CUDA sources)
  std::string why_whole;  // when built whole although it has CUDA sources: why the split was not used
};

InlineOutcome build_inline(BuildService& service, const InlineSpec& spec);

InlineSpec inline_spec_from_json(const nlohmann::json& j);

}  // namespace kforge::build
