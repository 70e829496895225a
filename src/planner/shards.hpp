#pragma once
// Splitting a study into shards that take about as long (kforge eval --shard I/N, one shard per
// node of a cluster): whole problems are assigned, the costliest first, each to the shard with
// the least work so far (longest processing time first), which keeps every shard within 4/3 of
// the best possible split. The assignment depends only on the weights and their order, so every
// node computes the same split without talking to the others.
#include <optional>
#include <string>
#include <vector>

namespace kforge::planner {

struct ShardSpec {
  int index = 0;  // from 0, as SLURM_ARRAY_TASK_ID
  int count = 1;
};

// "I/N" with 0 <= I < N; nothing when the text is not of that form.
std::optional<ShardSpec> parse_shard(const std::string& text);
// What is wrong with `text` as --shard's value; empty when nothing (a CLI11 check).
std::string shard_error(const std::string& text);

// The shard of each item, `weights` in the items' order (ties go to the earlier item, then the
// lower shard).
std::vector<int> assign_shards(const std::vector<double>& weights, int count);

// The items of one shard (their indices, in order) and the share of the whole weight they carry.
struct ShardPick {
  std::vector<size_t> items;
  double share = 0;
};
ShardPick pick_shard(const std::vector<double>& weights, const ShardSpec& shard);

// The expected cost of evaluating `candidates` candidates of a problem whose reference takes
// `reference_ms` (a stored eager baseline; none: a typical problem's), in seconds: a fixed part
// per candidate (worker start-up share, load, correctness, the fixed timing budget) and a part
// that grows with the reference's time (its calls in the trials and the timed pairs).
double expected_cost_s(int candidates, std::optional<double> reference_ms);

}  // namespace kforge::planner
