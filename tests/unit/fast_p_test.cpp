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

}  // namespace
}  // namespace kforge::metrics
