import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# RMSNorm, one block per row. The block size is a template parameter with a default, so the
# common case is written k<float> and narrow rows get a 128-thread specialisation.
rmsnorm_source = """
#include <torch/extension.h>
#include <cuda.h>
#include <cuda_runtime.h>

template <typename T, int BLOCK = 256>
__global__ void rmsnorm_kernel(const T* __restrict__ x,
                               const T* __restrict__ weight,
                               T* __restrict__ y,
                               int hidden,
                               float eps) {
    __shared__ float warp_sums[BLOCK / 32];
    const T* xr = x + (size_t)blockIdx.x * hidden;
    T* yr = y + (size_t)blockIdx.x * hidden;

    float acc = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += BLOCK) {
        float v = (float)xr[i];
        acc += v * v;
    }
    // warp level
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_down_sync(0xffffffff, acc, offset);
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();
    // first warp reduces the per-warp sums
    if (warp == 0) {
        acc = (lane < BLOCK / 32) ? warp_sums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            acc += __shfl_down_sync(0xffffffff, acc, offset);
        if (lane == 0) warp_sums[0] = acc;
    }
    __syncthreads();
    const float inv_rms = rsqrtf(warp_sums[0] / (float)hidden + eps);

    for (int i = threadIdx.x; i < hidden; i += BLOCK) {
        yr[i] = (T)((float)xr[i] * inv_rms * (float)weight[i]);
    }
}

torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "rmsnorm_forward: CUDA tensors expected");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "rmsnorm_forward: float32 expected");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    const int hidden = (int)xc.size(-1);
    TORCH_CHECK(wc.numel() == hidden, "weight size must equal the last dimension");
    const int64_t rows = xc.numel() / hidden;
    auto y = torch::empty_like(xc);
    if (rows == 0) return y;

    if (hidden >= 1024) {
        rmsnorm_kernel<float><<<(unsigned int)rows, 256>>>(
            xc.data_ptr<float>(), wc.data_ptr<float>(), y.data_ptr<float>(), hidden, (float)eps);
    } else {
        rmsnorm_kernel<float, 128><<<(unsigned int)rows, 128>>>(
            xc.data_ptr<float>(), wc.data_ptr<float>(), y.data_ptr<float>(), hidden, (float)eps);
    }
    return y;
}
"""

rmsnorm_cpp_source = "torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps);"

rmsnorm_ext = load_inline(
    name="rmsnorm_template_default",
    cpp_sources=rmsnorm_cpp_source,
    cuda_sources=rmsnorm_source,
    functions=["rmsnorm_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super(ModelNew, self).__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden) + torch.randn(hidden) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rmsnorm_ext.rmsnorm_forward(x, self.weight, self.eps)
