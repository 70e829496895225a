#pragma once
// The builds a plan's jobs wait for, run ahead of them while the workers start and evaluate: the
// native candidates on the build pool, and on a GPU the load_inline candidates (KernelBench
// format) by importing each in a build process of its own. Each job runs once its own build is
// done, so the GPU evaluates what is built while the rest compiles. Used by `kforge eval` and by
// each round of `kforge agent`.
#include <string>
#include <vector>

#include "planner/executor.hpp"
#include "planner/plan.hpp"
#include "store/store.hpp"

namespace kforge {

// A readable KernelBench candidate whose source calls load_inline (built at import).
bool builds_load_inline(const PlannedEval& e);

struct BuildsAheadOptions {
  bool announce = true;  // say on stderr what is being built
  // Build load_inline candidates ahead even when there are no more of them than workers. For
  // `kforge eval` each worker then builds its own as fast, and a prebuild only adds a Python start
  // before the first job; but an agent's workers are leased by every problem's search at once,
  // and a build inside one holds its GPU from the others.
  bool inline_even_when_few = false;
};

// The Prepare that builds `plan`'s candidates ahead of their jobs on `workers` workers (`cuda`:
// GPU workers); load_inline candidates only on a GPU (a CPU worker's build competes with no GPU).
// `plan`, `store` and the returned object must outlive the execute_plan that runs it.
Prepare builds_ahead(std::vector<PlannedEval>& plan, const std::string& arch, bool cuda, size_t workers, Store& store,
                     const BuildsAheadOptions& options = {});

}  // namespace kforge
