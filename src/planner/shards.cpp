#include "planner/shards.hpp"

#include <algorithm>
#include <numeric>
#include <regex>

namespace kforge::planner {

std::optional<ShardSpec> parse_shard(const std::string& text) {
  static const std::regex pattern(R"(^(\d{1,6})/(\d{1,6})$)");
  std::smatch m;
  if (!std::regex_match(text, m, pattern)) return std::nullopt;
  ShardSpec s{std::stoi(m[1]), std::stoi(m[2])};
  if (s.count < 1 || s.index >= s.count) return std::nullopt;
  return s;
}

std::string shard_error(const std::string& text) {
  return parse_shard(text) ? std::string() : "--shard takes I/N with 0 <= I < N, as 3/8";
}

std::vector<int> assign_shards(const std::vector<double>& weights, int count) {
  std::vector<size_t> order(weights.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return weights[a] > weights[b]; });
  std::vector<double> load(static_cast<size_t>(std::max(count, 1)), 0.0);
  std::vector<int> shard(weights.size(), 0);
  for (size_t item : order) {
    const auto least = std::min_element(load.begin(), load.end());  // the first of equals
    shard[item] = static_cast<int>(least - load.begin());
    *least += weights[item];
  }
  return shard;
}

ShardPick pick_shard(const std::vector<double>& weights, const ShardSpec& shard) {
  const auto shard_of = assign_shards(weights, shard.count);
  ShardPick pick;
  double total = 0, mine = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    total += weights[i];
    if (shard_of[i] != shard.index) continue;
    pick.items.push_back(i);
    mine += weights[i];
  }
  pick.share = total > 0 ? mine / total : 0;
  return pick;
}

double expected_cost_s(int candidates, std::optional<double> reference_ms) {
  // Seen on the H200 (docs/benchmarks.md): about 1.2 s a candidate for sub-millisecond problems
  // (the boundary, 5 trials and 20-50 timed pairs), and some 60 reference-length calls beyond.
  constexpr double kFixedS = 1.2;
  constexpr double kReferenceCalls = 60;
  constexpr double kTypicalReferenceMs = 2.0;  // level 1-2 problems take 1-15 ms eagerly; most near the low end
  return candidates * (kFixedS + kReferenceCalls * reference_ms.value_or(kTypicalReferenceMs) / 1000.0);
}

}  // namespace kforge::planner
