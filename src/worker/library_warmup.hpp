#pragma once
// A fresh candidate process's first forward paid for what the reference's process paid for long
// before: cuBLAS's and cuDNN's handles, their libraries' first loads, a first kernel's module.
// The spare candidate process does that work while it waits (the previous candidate's correctness
// trials run meanwhile; nothing is timed then), before the sandbox and before any candidate code.
// Which kernels a problem needs is not known yet: this warms the libraries, not the problem.
// KFORGE_WORKER_WARM_LIBRARIES=0 turns it off (bench/boundary_cost.sh compares the two).
#include <nlohmann/json.hpp>

namespace kforge::worker {

// A small matrix product, then a small convolution, on the current CUDA device, each finished;
// what each took, in ms ({"blas": .., "dnn": ..}), or an empty object when turned off. Throws what
// ATen throws.
nlohmann::json warm_cuda_libraries();

}  // namespace kforge::worker
