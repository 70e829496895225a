"""Mish training step: one float4-vectorised CUDA kernel each way, with one exp per element.

mish(x) = x * tanh(softplus(x)). With e = exp(x) and n = e * (e + 2) = (1 + e)^2 - 1,

    tanh(softplus(x)) = ((1 + e)^2 - 1) / ((1 + e)^2 + 1) = n / (n + 2)
    1 - tanh(softplus(x))^2 = 4 (n + 1) / (n + 2)^2,     sigmoid(x) = e / (1 + e)

so the forward is y = x * n / (n + 2) and the backward, the problem's
grad * (tanh(sp) + x * sigmoid(x) * (1 - tanh(sp)^2)), needs one expf and two IEEE divisions per
element where ATen's kernels call exp, log1p and tanh (and exp once more for the sigmoid in
backward). e is computed at min(x, 20): past that tanh(softplus(x)) and sigmoid(x) are 1.0f in
fp32 either way, and (n + 2)^2 stays finite. The closed form has no cancellation, so it is at
least as close to fp64 as ATen's (checked on the CPU over [-120, 120] and the problem's spread:
within 4e-6 of torch's fp32 gradient, nearer fp64 than it).

Groups of 4 elements go through float4 when the pointers are 16-byte aligned, with a scalar path
for the last n % 4 elements (the extra size 29 x 64 x 303 x 301 is odd) and unaligned views;
int64 indices.

Against eager: eager is one kernel each way too (mish, mish_backward), 8 + 12 bytes per element,
the same bytes as here. The gain is arithmetic: ATen's backward spends roughly 90 fp32
instructions per element on expf, log1pf, tanhf, expf and a division, about what an H200 can
issue per 12 bytes of HBM traffic, so it sits at the edge of compute-bound; the closed form here
is about a third of that and leaves the kernels bandwidth-bound. Expect a modest gain (mostly in
backward), not a multiple.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor mish_forward(torch::Tensor x);
torch::Tensor mish_backward(torch::Tensor grad, torch::Tensor x);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime.h>
#include <stdint.h>

constexpr int kThreads = 256;
// Above this, tanh(softplus(x)) and sigmoid(x) round to 1.0f; clamping keeps (n + 2)^2 finite.
constexpr float kExpClamp = 20.0f;

__device__ __forceinline__ float mish1(float x) {
    const float e = expf(fminf(x, kExpClamp));
    const float n = e * (e + 2.0f);
    return x * (n / (n + 2.0f));
}

__device__ __forceinline__ float mish_grad(float g, float x) {
    const float e = expf(fminf(x, kExpClamp));
    const float n = e * (e + 2.0f);
    const float rd = 1.0f / (n + 2.0f);
    const float t = n * rd;                               // tanh(softplus(x))
    const float one_minus_t2 = (4.0f * (n + 1.0f)) * rd * rd;
    const float sig = e / (1.0f + e);                     // sigmoid(x)
    return g * (t + x * sig * one_minus_t2);
}

template <bool kVec>
__global__ void __launch_bounds__(kThreads)
mish_fwd_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t full_groups = n >> 2;
    const int64_t groups = (n + 3) >> 2;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t gi = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; gi < groups; gi += stride) {
        if (kVec && gi < full_groups) {
            float4 v = reinterpret_cast<const float4*>(x)[gi];
            v.x = mish1(v.x);
            v.y = mish1(v.y);
            v.z = mish1(v.z);
            v.w = mish1(v.w);
            reinterpret_cast<float4*>(y)[gi] = v;
        } else {
            const int64_t e0 = gi << 2;
            #pragma unroll
            for (int k = 0; k < 4; ++k) {
                const int64_t e = e0 + k;
                if (e < n) y[e] = mish1(x[e]);
            }
        }
    }
}

template <bool kVec>
__global__ void __launch_bounds__(kThreads)
mish_bwd_kernel(const float* __restrict__ g, const float* __restrict__ x, float* __restrict__ gx, int64_t n) {
    const int64_t full_groups = n >> 2;
    const int64_t groups = (n + 3) >> 2;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t gi = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; gi < groups; gi += stride) {
        if (kVec && gi < full_groups) {
            const float4 gv = reinterpret_cast<const float4*>(g)[gi];
            const float4 xv = reinterpret_cast<const float4*>(x)[gi];
            float4 o;
            o.x = mish_grad(gv.x, xv.x);
            o.y = mish_grad(gv.y, xv.y);
            o.z = mish_grad(gv.z, xv.z);
            o.w = mish_grad(gv.w, xv.w);
            reinterpret_cast<float4*>(gx)[gi] = o;
        } else {
            const int64_t e0 = gi << 2;
            #pragma unroll
            for (int k = 0; k < 4; ++k) {
                const int64_t e = e0 + k;
                if (e < n) gx[e] = mish_grad(g[e], x[e]);
            }
        }
    }
}

static unsigned int grid_for(int64_t n) {
    const int64_t groups = (n + 3) >> 2;
    int64_t blocks = (groups + kThreads - 1) / kThreads;   // one group per thread
    if (blocks > 2147483647LL) blocks = 2147483647LL;       // the grid-stride loop covers the rest
    if (blocks < 1) blocks = 1;
    return (unsigned int)blocks;
}

static bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

torch::Tensor mish_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "mish_forward: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "mish_forward: x must be float32");
    TORCH_CHECK(x.is_contiguous(), "mish_forward: x must be contiguous");
    const at::cuda::CUDAGuard guard(x.device());
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) return y;
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    auto stream = at::cuda::getCurrentCUDAStream();
    if (aligned16(xp) && aligned16(yp)) {
        mish_fwd_kernel<true><<<grid_for(n), kThreads, 0, stream>>>(xp, yp, n);
    } else {
        mish_fwd_kernel<false><<<grid_for(n), kThreads, 0, stream>>>(xp, yp, n);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}

torch::Tensor mish_backward(torch::Tensor grad, torch::Tensor x) {
    TORCH_CHECK(grad.is_cuda() && x.is_cuda(), "mish_backward: tensors must be on CUDA");
    TORCH_CHECK(grad.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32,
                "mish_backward: tensors must be float32");
    TORCH_CHECK(grad.is_contiguous() && x.is_contiguous(), "mish_backward: tensors must be contiguous");
    TORCH_CHECK(grad.numel() == x.numel(), "mish_backward: grad and x differ in size");
    const at::cuda::CUDAGuard guard(x.device());
    auto gx = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) return gx;
    const float* gp = grad.data_ptr<float>();
    const float* xp = x.data_ptr<float>();
    float* gxp = gx.data_ptr<float>();
    auto stream = at::cuda::getCurrentCUDAStream();
    if (aligned16(gp) && aligned16(xp) && aligned16(gxp)) {
        mish_bwd_kernel<true><<<grid_for(n), kThreads, 0, stream>>>(gp, xp, gxp, n);
    } else {
        mish_bwd_kernel<false><<<grid_for(n), kThreads, 0, stream>>>(gp, xp, gxp, n);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return gx;
}
"""

_ext = load_inline(
    name="kforge_solution_l6_11_mish",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["mish_forward", "mish_backward"],
    verbose=False,
)


class _MishFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x = x.contiguous()
        ctx.save_for_backward(x)
        return _ext.mish_forward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _ext.mish_backward(grad.contiguous(), x)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _MishFn.apply(x)
