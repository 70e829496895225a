#pragma once
// --shard I/N for commands that choose problems (baseline, generate, run, agent): keeps one
// shard's problems, whole, split as kforge eval splits (planner/shards.hpp), so every node of a
// study computes the same split from the same stored baselines.
#include <functional>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "suite/problem.hpp"

namespace kforge::cli {

using ProblemWeight = std::function<double(const Problem&)>;

// Keeps in `problems` those of shard `shard` ("I/N", already checked), each weighed by `weight`;
// says on stderr what the shard holds.
void keep_problem_shard(std::vector<Problem>& problems, const std::string& shard, const ProblemWeight& weight);

// The expected cost of `units` evaluations (samples, attempts) of a problem, from its stored eager
// baseline in `store` (which must outlive the weight).
ProblemWeight expected_cost_weight(int units, Store& store);

}  // namespace kforge::cli
