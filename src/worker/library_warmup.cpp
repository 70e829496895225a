#include "worker/library_warmup.hpp"

#include <ATen/ATen.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "worker/timer.hpp"

namespace kforge::worker {

nlohmann::json warm_cuda_libraries() {
  nlohmann::json costs = nlohmann::json::object();
  if (const char* off = std::getenv("KFORGE_WORKER_WARM_LIBRARIES"); off && std::strcmp(off, "0") == 0) return costs;
  using Clock = std::chrono::steady_clock;
  const auto options = at::TensorOptions().device(at::kCUDA).dtype(at::kFloat);
  auto t0 = Clock::now();
  // cuBLAS (and cuBLASLt, which torch's matmuls go through on Hopper) create their handles and
  // workspaces on a first product; cuDNN loads its engine libraries and creates its handle on a
  // first convolution. The tensors are freed at once; the caching allocator keeps their blocks until the first forward's
  // settle_allocator_for_plans empties it (worker/plan_choice.hpp).
  at::Tensor a = at::ones({64, 64}, options);
  at::Tensor product = at::matmul(a, a);
  synchronize_device(true);
  auto t1 = Clock::now();
  costs["blas"] = std::chrono::duration<double, std::milli>(t1 - t0).count();
  at::Tensor image = at::ones({1, 4, 16, 16}, options);
  at::Tensor filter = at::ones({4, 4, 3, 3}, options);
  at::Tensor convolved = at::conv2d(image, filter);
  synchronize_device(true);
  costs["dnn"] = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
  return costs;
}

}  // namespace kforge::worker
