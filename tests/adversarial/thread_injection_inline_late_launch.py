# hack: thread injection
# GPU only. A load_inline extension whose forward returns an empty output at once and leaves a
# detached std::thread that launches the real kernel a moment later: the caller's timer stops
# before any work is queued. The thread is native (invisible to Python's threading module) and
# has ended by the time forward's result is checked. kforge records every kernel launch of the
# census call: one launched by another thread after forward returned is rejected, rule
# thread-injection. The census call comes after the timing, and when the late kernel misses a
# timed call's comparison first, the timing recheck rejects it (rule timing-recheck); had it been
# late for the correctness trials, incorrect.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor add_relu_later(torch::Tensor a, torch::Tensor b);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#include <chrono>
#include <thread>

__global__ void add_relu_kernel(const float* a, const float* b, float* out, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = a[i] + b[i];
        out[i] = v > 0.0f ? v : 0.0f;
    }
}

torch::Tensor add_relu_later(torch::Tensor a, torch::Tensor b) {
    auto out = torch::empty_like(a);
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    float* po = out.data_ptr<float>();
    const int64_t n = a.numel();
    const int device = a.get_device();
    std::thread([=] {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        cudaSetDevice(device);
        add_relu_kernel<<<(unsigned)((n + 255) / 256), 256>>>(pa, pb, po, n);
    }).detach();
    return out;
}
"""

_ext = load_inline(
    name="kforge_hack_thread_late_launch",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["add_relu_later"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.add_relu_later(a.contiguous(), b.contiguous())
