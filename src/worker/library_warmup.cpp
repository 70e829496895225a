#include "worker/library_warmup.hpp"

#include <ATen/ATen.h>

#include <cstdlib>
#include <cstring>

#include "worker/timer.hpp"

namespace kforge::worker {

bool warm_cuda_libraries() {
  if (const char* off = std::getenv("KFORGE_WORKER_WARM_LIBRARIES"); off && std::strcmp(off, "0") == 0) return false;
  const auto options = at::TensorOptions().device(at::kCUDA).dtype(at::kFloat);
  // cuBLAS (and cuBLASLt, which torch's matmuls go through on Hopper) create their handles and
  // workspaces on a first product; cuDNN loads its sub-libraries and creates its handle on a
  // first convolution. The tensors are freed at once; the caching allocator keeps their blocks
  // until the first forward's settle_allocator_for_plans empties it (worker/plan_choice.hpp).
  at::Tensor a = at::ones({64, 64}, options);
  at::Tensor product = at::matmul(a, a);
  at::Tensor image = at::ones({1, 4, 16, 16}, options);
  at::Tensor filter = at::ones({4, 4, 3, 3}, options);
  at::Tensor convolved = at::conv2d(image, filter);
  synchronize_device(true);
  return true;
}

}  // namespace kforge::worker
