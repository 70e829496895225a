#include "metrics/fast_p.hpp"

#include <gtest/gtest.h>

namespace kforge::metrics {
namespace {

TEST(FastP, CountsFailuresInTheDenominator) {
  std::vector<Outcome> o{{true, 2.5}, {true, 1.2}, {true, 0.7}, {false, std::nullopt}};
  EXPECT_DOUBLE_EQ(fast_p(o, 0.0), 0.75);  // correctness rate
  EXPECT_DOUBLE_EQ(fast_p(o, 0.5), 0.75);
  EXPECT_DOUBLE_EQ(fast_p(o, 0.8), 0.5);
  EXPECT_DOUBLE_EQ(fast_p(o, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(fast_p(o, 1.5), 0.25);
  EXPECT_DOUBLE_EQ(fast_p(o, 2.0), 0.25);
}

TEST(FastP, IsStrictlyGreater) {
  std::vector<Outcome> o{{true, 1.0}};
  EXPECT_DOUBLE_EQ(fast_p(o, 1.0), 0.0);
}

TEST(FastP, CorrectButUntimedCountsOnlyForFast0) {
  std::vector<Outcome> o{{true, std::nullopt}};
  EXPECT_DOUBLE_EQ(fast_p(o, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(fast_p(o, 0.5), 0.0);
}

TEST(FastP, EmptyIsZero) { EXPECT_DOUBLE_EQ(fast_p({}, 1.0), 0.0); }

TEST(GeometricMean, OverCorrectTimedOnly) {
  std::vector<Outcome> o{{true, 2.0}, {true, 0.5}, {false, 100.0}, {true, std::nullopt}};
  auto g = geometric_mean_speedup(o);
  ASSERT_TRUE(g);
  EXPECT_NEAR(*g, 1.0, 1e-12);
  EXPECT_FALSE(geometric_mean_speedup(std::vector<Outcome>{{false, 2.0}}));
}

TEST(FastPAtK, IsTheUnbiasedEstimatorAveragedOverProblems) {
  const Outcome fast{true, 2.0}, slow{true, 0.5}, wrong{false, std::nullopt};
  std::vector<std::vector<Outcome>> problems{{fast, wrong}, {slow, wrong, wrong}};
  // k = 1: per problem the share of fast samples; at p = 1 the first has 1 of 2, the second 0 of 3.
  EXPECT_DOUBLE_EQ(*fast_p_at_k(problems, 1, 1.0), (0.5 + 0.0) / 2);
  // At p = 0 (pass@k): k = 2 gives 1 for the first (any pair holds its correct sample) and
  // 1 - C(2,2)/C(3,2) = 2/3 for the second.
  EXPECT_DOUBLE_EQ(*fast_p_at_k(problems, 2, 0.0), (1.0 + 2.0 / 3.0) / 2);
  EXPECT_FALSE(fast_p_at_k(problems, 3, 0.0));  // the first problem has only 2 samples
  EXPECT_FALSE(fast_p_at_k({}, 1, 0.0));
  // One sample a problem: fast_p@1 is upstream's fast_p.
  std::vector<std::vector<Outcome>> single{{fast}, {wrong}, {slow}, {fast}};
  EXPECT_DOUBLE_EQ(*fast_p_at_k(single, 1, 1.0), 0.5);
}

}  // namespace
}  // namespace kforge::metrics
