#pragma once
// --shard I/N for commands that choose problems (run, generate, agent): keeps one shard's
// problems, whole, split by expected cost as kforge eval splits (planner/shards.hpp), so every
// node of a study computes the same split from the same stored baselines.
#include <string>
#include <vector>

#include "store/store.hpp"
#include "suite/problem.hpp"

namespace kforge::cli {

// Keeps in `problems` those of shard `shard` ("I/N", already checked), weighing each by the
// expected cost of `units` evaluations (samples or attempts) of it, from its stored eager
// baseline; says on stderr what the shard holds.
void keep_problem_shard(std::vector<Problem>& problems, const std::string& shard, int units, Store& store);

}  // namespace kforge::cli
