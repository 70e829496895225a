#pragma once
// Where a timed call's inputs sit in the exchange arena (worker/exchange_arena.hpp): pure
// arithmetic, so it is tested without a device.
//
// Each process computes on its arena's memory in place, and every call's inputs started at the
// arena's first byte: each process read its inputs from the same physical pages for the whole
// timing. Where a kernel's speed depends on where its tensors lie (which pages, and so which
// memory channels and banks each streams from), each side then timed at one placement's speed
// for the whole evaluation: a factor of its process, fixed for the evaluation, that no number of
// pairs averages out (issue 18: identity speedups 0.55-1.14% off 1.00 on single problems of level
// 1, with every interval holding 1.00; docs/benchmarks.md, sessions 39-40). With `count` layouts,
// timed pair i places its inputs (both models' alike, each in its own arena) from the start of
// layout i mod count, each layout shifted from the last by a quarter (for count 4) of the inputs'
// size rounded up to the driver's 2 MiB pages, so each side's pairs spread over several
// placements and its median over them. KFORGE_WORKER_INPUT_LAYOUTS=N (1-8) sets the count; 1, the
// default until an A/B on a GPU says otherwise, keeps every call at the arena's start.
#include <cstdint>

#include "common/environment_says.hpp"

namespace kforge::worker {

inline constexpr int64_t kLayoutGranule = int64_t{2} << 20;  // [bytes] the VMM arena's page
inline constexpr int kMostInputLayouts = 8;

// [bytes] How far apart two successive layouts start; 0 for one layout.
constexpr int64_t layout_stride(int64_t input_bytes, int layouts) {
  if (layouts <= 1 || input_bytes <= 0) return 0;
  const int64_t share = (input_bytes + layouts - 1) / layouts;
  return (share + kLayoutGranule - 1) / kLayoutGranule * kLayoutGranule;
}

// [bytes] Where timed pair `pair` (negative: an untimed call or a warm-up) places its inputs.
constexpr int64_t layout_start(int64_t input_bytes, int layouts, int pair) {
  if (pair < 0 || layouts <= 1) return 0;
  return (pair % layouts) * layout_stride(input_bytes, layouts);
}

// [bytes] The arena space the inputs take over every layout: the last layout's end.
constexpr int64_t layouts_span(int64_t input_bytes, int layouts) {
  return input_bytes + (layouts <= 1 ? 0 : (layouts - 1) * layout_stride(input_bytes, layouts));
}

// The count KFORGE_WORKER_INPUT_LAYOUTS sets (1-8), else 1; read once.
inline int input_layouts_from_environment() {
  static const int count = static_cast<int>(environment_integer("KFORGE_WORKER_INPUT_LAYOUTS", 1, kMostInputLayouts).value_or(1));
  return count;
}

}  // namespace kforge::worker
