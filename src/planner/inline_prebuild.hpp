#pragma once
// Builds the load_inline extensions of KernelBench candidates ahead of their jobs: one Python
// process per candidate imports it in the candidate sandbox (load_inline runs at import; there
// kforge_inline.py only records each call), then kforge builds what it recorded (`kforge
// build-inline`, build/build_inline_child.hpp), many at once, filling kforge's build cache. A
// worker then loads the built module instead of compiling while the GPU waits, one candidate after
// another.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build/subprocess.hpp"

namespace kforge {

// Whether a candidate's source builds with load_inline at import.
bool builds_with_load_inline(const std::string& source);

// "sm_90a" -> "9.0": the TORCH_CUDA_ARCH_LIST entry torch itself picks on such a device, so the
// worker finds the build up to date.
std::string torch_arch_list_for(const std::string& arch);

// Sets TORCH_CUDA_ARCH_LIST for this process and its children unless the user set it. Call before
// any thread starts: setenv races with a fork that copies the environment.
void export_torch_arch_list(const std::string& arch);

// Imports each file in its own process, `jobs` at a time (0: one per core), the first of each
// guessed header flag set first (planner/build_order.hpp), then in the given order, with
// TORCH_CUDA_ARCH_LIST set and no GPU visible (a build needs none), then builds what it recorded.
// Results in input order: the import's output with a result line per build, and its exit status,
// or, where it recorded builds, 0 when they all built and 1 otherwise; `on_done(i)` as soon as file
// i's builds are done (from a build thread).
std::vector<build::ProcessResult> prebuild_load_inline(const std::vector<std::string>& files, const std::string& arch,
                                                       int jobs, std::chrono::seconds timeout,
                                                       const std::function<void(size_t)>& on_done = {});

// The load_inline builds of one prebuild's result: per recorded call, its name, ok, cached,
// seconds, strategy ("split", "whole", "host") and why it was not split.
std::vector<nlohmann::json> inline_build_reports(const build::ProcessResult& prebuild);

}  // namespace kforge
