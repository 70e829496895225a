#include "cli/shard_choice.hpp"

#include <iostream>

#include <fmt/format.h>

#include "planner/shards.hpp"

namespace kforge::cli {

void keep_problem_shard(std::vector<Problem>& problems, const std::string& shard, const ProblemWeight& weight) {
  const auto spec = *planner::parse_shard(shard);
  std::vector<double> weights;
  for (const auto& p : problems) weights.push_back(weight(p));
  const auto pick = planner::pick_shard(weights, spec);
  std::vector<Problem> kept;
  for (size_t i : pick.items) kept.push_back(problems[i]);
  std::cerr << fmt::format("kforge: shard {}/{}: {} of {} problems, {:.0f}% of the expected work\n", spec.index,
                           spec.count, kept.size(), problems.size(), 100 * pick.share);
  problems = std::move(kept);
}

ProblemWeight expected_cost_weight(int units, Store& store) {
  return [units, &store](const Problem& p) { return planner::expected_cost_s(units, store.typical_eager_ms(p.hash)); };
}

}  // namespace kforge::cli
