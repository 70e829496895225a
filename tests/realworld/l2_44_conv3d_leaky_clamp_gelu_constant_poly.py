import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Conv3d stays on cuDNN. LeakyReLU + clamp + exact (erf) GELU are fused into one kernel; erf is
# evaluated with the Abramowitz-Stegun 7.1.26 rational approximation (|error| < 1.5e-7), whose
# coefficients sit in constant memory so every thread reads them through the broadcast cache.
fused_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// a1..a5, p of A&S 7.1.26, then 1/sqrt(2) and 0.5
__constant__ float coeffs[8] = {
    0.254829592f, -0.284496736f, 1.421413741f, -1.453152027f, 1.061405429f,
    0.3275911f, 0.70710678118654752f, 0.5f
};

__device__ __forceinline__ float erf_poly(float z) {
    const float sign = z < 0.0f ? -1.0f : 1.0f;
    const float a = fabsf(z);
    const float t = 1.0f / (1.0f + coeffs[5] * a);
    const float poly = ((((coeffs[4] * t + coeffs[3]) * t + coeffs[2]) * t + coeffs[1]) * t + coeffs[0]) * t;
    return sign * (1.0f - poly * expf(-a * a));
}

__global__ void leaky_clamp_gelu_kernel(const float* __restrict__ x, float* __restrict__ y,
                                        int64_t n, float slope, float lo, float hi) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        v = v >= 0.0f ? v : v * slope;
        v = fminf(fmaxf(v, lo), hi);
        y[i] = coeffs[7] * v * (1.0f + erf_poly(v * coeffs[6]));
    }
}

torch::Tensor leaky_clamp_gelu(torch::Tensor x, double slope, double lo, double hi) {
    TORCH_CHECK(x.is_cuda(), "leaky_clamp_gelu: CUDA tensor expected");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "leaky_clamp_gelu: float32 expected");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    if (n == 0) return y;
    const int threads = 256;
    const int64_t blocks = (n + threads - 1) / threads;
    leaky_clamp_gelu_kernel<<<(unsigned int)blocks, threads>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), n, (float)slope, (float)lo, (float)hi);
    return y;
}
"""

fused_cpp_source = "torch::Tensor leaky_clamp_gelu(torch::Tensor x, double slope, double lo, double hi);"

fused_ext = load_inline(
    name="conv3d_leaky_clamp_gelu_poly",
    cpp_sources=fused_cpp_source,
    cuda_sources=fused_source,
    functions=["leaky_clamp_gelu"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, negative_slope: float,
                 clamp_min: float, clamp_max: float):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.negative_slope = negative_slope
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        return fused_ext.leaky_clamp_gelu(y, self.negative_slope, self.clamp_min, self.clamp_max)
