#include "worker/plan_choice.hpp"

#include <algorithm>

#include <torch/csrc/utils/pybind.h>

#if KFORGE_WITH_CUDA
#include <c10/core/Allocator.h>
#include <c10/cuda/CUDACachingAllocator.h>
#endif

namespace kforge::worker {

int64_t plan_workspace_bytes(bool cuda) {
  if (!cuda) return 0;
  namespace py = pybind11;
  py::tuple info = py::module_::import("torch").attr("cuda").attr("mem_get_info")();
  return std::min<int64_t>(int64_t{4} << 30, info[0].cast<int64_t>() / 8);
}

void settle_allocator_for_plans(int64_t bytes) {
#if KFORGE_WITH_CUDA
  if (bytes <= 0) return;
  c10::cuda::CUDACachingAllocator::emptyCache();
  try {
    // Freed at the end of this scope: cached, not returned to the driver.
    c10::DataPtr block = c10::cuda::CUDACachingAllocator::get()->allocate(static_cast<size_t>(bytes));
  } catch (const c10::OutOfMemoryError&) {
    // The device filled up since the size was chosen: the choice is left to the state as it is.
  }
#else
  (void)bytes;
#endif
}

}  // namespace kforge::worker
