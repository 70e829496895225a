// How the timing cuts its pairs into batches (src/worker/pair_batches.hpp).
#include "worker/pair_batches.hpp"

#include <gtest/gtest.h>

namespace kforge::worker {
namespace {

// Pairs the timing takes before its first stop test: whole batches until `min_pairs` are reached.
int pairs_before_the_stop(int batch, int min_pairs) { return (min_pairs + batch - 1) / batch * batch; }

TEST(PairBatches, TheDefaultTwentyPairsAreTwoBatchesOfTen) {
  EXPECT_EQ(evened_batch(kMostPairsPerBatch, 20), 10);
  EXPECT_EQ(pairs_before_the_stop(evened_batch(kMostPairsPerBatch, 20), 20), 20);
}

TEST(PairBatches, WhereMemoryHoldsFewerTheBatchesAreEvenedNotFilled) {
  EXPECT_EQ(evened_batch(8, 20), 7);  // three batches either way: 21 pairs, not 24
  EXPECT_EQ(evened_batch(3, 20), 3);  // seven batches of 3 (21); of 2.86 there are none
  EXPECT_EQ(evened_batch(1, 20), 1);
}

TEST(PairBatches, NeverMorePairsThanFitNorFewerBatchesThanNeeded) {
  for (int fits = 1; fits <= kMostPairsPerBatch; ++fits)
    for (int min_pairs = 1; min_pairs <= 100; ++min_pairs) {
      const int batch = evened_batch(fits, min_pairs);
      ASSERT_GE(batch, 1);
      ASSERT_LE(batch, fits) << fits << " fit, " << min_pairs << " least";
      const int fewest_batches = (min_pairs + fits - 1) / fits;
      ASSERT_EQ((min_pairs + batch - 1) / batch, fewest_batches) << fits << " fit, " << min_pairs << " least";
      ASSERT_LT(pairs_before_the_stop(batch, min_pairs) - min_pairs, fewest_batches) << fits << " fit, " << min_pairs;
    }
}

TEST(PairBatches, AMinimumOfOnePairIsABatchOfOne) {
  EXPECT_EQ(evened_batch(10, 1), 1);  // --min-samples 1 may stop after one pair
  EXPECT_EQ(evened_batch(10, 0), 10);
  EXPECT_EQ(evened_batch(0, 20), 1);
}

}  // namespace
}  // namespace kforge::worker
