#include <gtest/gtest.h>

#include <numeric>

#include "planner/shards.hpp"

namespace kforge::planner {
namespace {

TEST(Shards, ParsesIOverN) {
  ASSERT_TRUE(parse_shard("0/1"));
  EXPECT_EQ(parse_shard("3/8")->index, 3);
  EXPECT_EQ(parse_shard("3/8")->count, 8);
  for (const char* bad : {"8/8", "1/0", "-1/4", "a/b", "3", "3/8/1", " 1/2", ""}) EXPECT_FALSE(parse_shard(bad)) << bad;
}

TEST(Shards, CostliestFirstToTheLeastLoadedShard) {
  // 10, 9, 8, 7, 1, 1 over two shards: 10+7+1 = 18 and 9+8+1 = 18.
  const std::vector<double> w{1, 10, 8, 1, 9, 7};
  const auto s = assign_shards(w, 2);
  std::vector<double> load(2, 0);
  for (size_t i = 0; i < w.size(); ++i) load[static_cast<size_t>(s[i])] += w[i];
  EXPECT_DOUBLE_EQ(load[0], 18);
  EXPECT_DOUBLE_EQ(load[1], 18);
  EXPECT_EQ(s, assign_shards(w, 2));  // the same split every time
}

TEST(Shards, EveryItemInOneShardAndNoShardEmptyWhileItemsRemain) {
  std::vector<double> w(37);
  std::iota(w.begin(), w.end(), 1.0);
  const auto s = assign_shards(w, 8);
  std::vector<int> items(8, 0);
  for (int shard : s) {
    ASSERT_GE(shard, 0);
    ASSERT_LT(shard, 8);
    ++items[static_cast<size_t>(shard)];
  }
  for (int n : items) EXPECT_GT(n, 0);
  // More shards than items: each item alone, the rest empty.
  EXPECT_EQ(assign_shards({5, 3}, 4), (std::vector<int>{0, 1}));
}

TEST(Shards, ExpectedCostGrowsWithCandidatesAndTheReference) {
  EXPECT_DOUBLE_EQ(expected_cost_s(2, 1.0), 2 * expected_cost_s(1, 1.0));
  EXPECT_GT(expected_cost_s(1, 50.0), expected_cost_s(1, 1.0));
  EXPECT_GT(expected_cost_s(1, std::nullopt), 0);
}

}  // namespace
}  // namespace kforge::planner
