#pragma once
// Builds the native candidates of a plan before any job runs, all at once on the build pool, so
// workers spend their time running, never compiling.
#include <string>
#include <vector>

#include "planner/plan.hpp"
#include "store/store.hpp"

namespace kforge {

// `arch` is "auto" (the first visible GPU's, see cuda_arch_of) or an nvcc target such as sm_90a.
// Resolves it for plans that hold cuda candidates; throws kforge::Error when auto cannot.
std::string resolve_arch(const std::string& arch, bool needed);

// Sets build_key and library (or build_failure) on every cpp/cuda entry of `plan`; records each
// build in `store` when given.
void build_native_candidates(std::vector<PlannedEval>& plan, const std::string& arch, Store* store, int jobs = 0);

}  // namespace kforge
