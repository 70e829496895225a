// Where a timed call's inputs sit in the exchange arena (src/worker/input_layouts.hpp).
#include "worker/input_layouts.hpp"

#include <gtest/gtest.h>

#include <set>

namespace kforge::worker {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(InputLayouts, OneLayoutKeepsEveryCallAtTheArenasStart) {
  for (int pair : {-1, 0, 1, 7, 1000}) EXPECT_EQ(layout_start(3 * kMiB, 1, pair), 0);
  EXPECT_EQ(layouts_span(3 * kMiB, 1), 3 * kMiB);
  EXPECT_EQ(layout_stride(3 * kMiB, 1), 0);
}

TEST(InputLayouts, UntimedCallsAndWarmUpsTakeTheFirstLayout) {
  EXPECT_EQ(layout_start(64 * kMiB, 4, -1), 0);
  EXPECT_EQ(layout_start(64 * kMiB, 4, -100000), 0);
}

TEST(InputLayouts, PairsCycleThroughLayoutsAQuarterOfTheInputsApart) {
  // 1 GiB of inputs over 4 layouts: 256 MiB apart, the span 1.75 GiB.
  const int64_t inputs = 1024 * kMiB;
  EXPECT_EQ(layout_stride(inputs, 4), 256 * kMiB);
  EXPECT_EQ(layout_start(inputs, 4, 0), 0);
  EXPECT_EQ(layout_start(inputs, 4, 1), 256 * kMiB);
  EXPECT_EQ(layout_start(inputs, 4, 3), 768 * kMiB);
  EXPECT_EQ(layout_start(inputs, 4, 4), 0);
  EXPECT_EQ(layout_start(inputs, 4, 9), 256 * kMiB);
  EXPECT_EQ(layouts_span(inputs, 4), 1792 * kMiB);
}

TEST(InputLayouts, SmallInputsStillMoveToOtherPages) {
  // 4 KiB of inputs: each layout a whole page further on, not 1 KiB.
  EXPECT_EQ(layout_stride(4096, 4), kLayoutGranule);
  EXPECT_EQ(layout_start(4096, 4, 2), 2 * kLayoutGranule);
  EXPECT_EQ(layouts_span(4096, 4), 3 * kLayoutGranule + 4096);
}

TEST(InputLayouts, EveryLayoutFitsTheSpanAndStartsOnAPage) {
  for (int64_t inputs : {int64_t{1}, int64_t{256}, 5 * kMiB + 17, 3000 * kMiB})
    for (int layouts = 1; layouts <= kMostInputLayouts; ++layouts) {
      std::set<int64_t> starts;
      for (int pair = 0; pair < 3 * layouts; ++pair) {
        const int64_t start = layout_start(inputs, layouts, pair);
        ASSERT_EQ(start % kLayoutGranule, 0);
        ASSERT_LE(start + inputs, layouts_span(inputs, layouts)) << inputs << " bytes, " << layouts << " layouts";
        starts.insert(start);
      }
      EXPECT_EQ(starts.size(), static_cast<size_t>(layouts)) << "each layout its own start";
    }
}

}  // namespace
}  // namespace kforge::worker
