#pragma once
// The allocator's state that a library's algorithm choice depends on, made the same in the
// reference's process and the candidate's before each evaluation's first forward.
//
// Torch's cuDNN convolutions (aten/src/ATen/native/cudnn/Conv_v8.cpp) choose a shape's plan on its
// first call, among the heuristic's plans whose workspace fits the caching allocator's largest free
// cached block, and keep it for the life of the process. One process held both models before the
// process boundary; now each chooses on its own, and an identity candidate's ConvTranspose2d
// (level1/83) timed at 1.19 and at 0.85 against its reference in two runs, its ConvTranspose3d
// siblings 0.88-1.01 (docs/benchmarks.md, sessions 17 and 18). What this settles is less than it
// meant to: the largest block torch's cuDNN path asks c10's cacheInfo for starts from
// cudaMemGetInfo's free memory, so on a 139 GiB device a cached 4 GiB block bounds nothing, and in
// fresh processes level1/83's plan did not follow the free memory at all: it ran at 2.8 or 3.4 ms
// whatever memory a hog left, and level1/75's changed with a hog placed after its inputs
// (docs/benchmarks.md, session 30). In session 31 the same kernel of level1/83 ran 2.09 or 2.59 ms
// by its process's state, not its plan. Kept: it empties the cache, which the first forward then
// fills the same way in either process, and the reference twin (worker/reference_twin.hpp), which
// times the reference in a process in the candidate's state, settles its first call with it too.
#include <cstdint>

namespace kforge::worker {

// The free block's size, chosen by the reference's process for an evaluation and sent to the
// candidate's: 4 GiB, or an eighth of the device's free memory where that is less (0 on the CPU).
int64_t plan_workspace_bytes(bool cuda);

// Frees every cached block of the caching allocator, then caches one free block of `bytes`: the
// largest free block a first call sees is `bytes` in either process. Call it after the call's
// inputs are made, just before the forward. Nothing on the CPU or with `bytes` 0.
void settle_allocator_for_plans(int64_t bytes);

}  // namespace kforge::worker
