#pragma once
// How the timed pairs are cut into batches (worker/paired_timing.hpp): pure arithmetic, apart from
// the memory query that sets how many fit, so it is tested without a device.
#include <algorithm>

namespace kforge::worker {

// The most timed pairs prepared at once (their inputs held together).
constexpr int kMostPairsPerBatch = 10;

// A call at least this long (both models' median in the last batch, GPU time) starts the next
// batch without the untimed call of each model (worker/paired_timing.cpp): the cold start those
// calls prevent is a launch-bound call's, tens of microseconds, within the noise of such a call.
constexpr double kLongCallMs = 2.0;

// The batch size, at most `fits`, whose whole batches make up `min_pairs` with the fewest batches
// and then the fewest pairs past it: 20 pairs at most 10 a batch are two of 10, at most 8 three of
// 7 (not three of 8: 24 pairs, four more timed calls of each model that the stop never asked for).
constexpr int evened_batch(int fits, int min_pairs) {
  if (fits <= 1) return 1;
  if (min_pairs <= 0) return fits;
  const int batches = (min_pairs + fits - 1) / fits;
  return (min_pairs + batches - 1) / batches;
}

}  // namespace kforge::worker
