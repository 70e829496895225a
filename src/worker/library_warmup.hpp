#pragma once
// A fresh candidate process's first forward paid for what the reference's process paid long
// before: cuBLAS's and cuDNN's handles and their first kernels' modules, 60-110 ms on the matmul
// and convolution problems of level 1 (docs/benchmarks.md, session 19). A spare process does that
// work while it waits for its candidate (worker/spare_processes.hpp), before any candidate code,
// paused whenever something is timed. Which kernels a problem needs is not known yet: this warms
// the libraries, not the problem. KFORGE_WORKER_WARM_LIBRARIES=0 turns it off.
#include <nlohmann/json.hpp>

namespace kforge::worker {

// A small matrix product, then a small convolution, on the current CUDA device, each finished;
// what each took, in ms ({"blas": .., "dnn": ..}), or an empty object when turned off. Throws what
// ATen throws.
nlohmann::json warm_cuda_libraries();

}  // namespace kforge::worker
