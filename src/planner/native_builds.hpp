#pragma once
// Builds the native candidates of a plan on the build pool, all at once, so workers spend their
// time running, never compiling; each candidate's job may run as soon as its own build is done.
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "planner/plan.hpp"
#include "store/store.hpp"

namespace kforge {

// `arch` is "auto" (the first visible GPU's, see cuda_arch_of) or an nvcc target such as sm_90a.
// Resolves it for plans that hold cuda candidates; throws kforge::Error when auto cannot.
std::string resolve_arch(const std::string& arch, bool needed);

// A readable cpp or cuda candidate: one build_native_candidates builds.
bool builds_natively(const PlannedEval& e);

// Sets build_key and library (or build_failure) on every cpp/cuda entry of `plan`; records each
// build in `store` when given (holding `store_mutex` when given: jobs may be using the store);
// calls `on_built(i)` once plan[i]'s entry is set, from a build thread.
void build_native_candidates(std::vector<PlannedEval>& plan, const std::string& arch, Store* store, int jobs = 0,
                             const std::function<void(size_t)>& on_built = {}, std::mutex* store_mutex = nullptr);

}  // namespace kforge
