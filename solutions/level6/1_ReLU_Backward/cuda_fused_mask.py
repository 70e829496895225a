"""ReLU training step whose backward reads a 1-bit mask instead of a saved activation.

Forward: one float4-vectorised kernel reads x, writes relu(x) and, through warp ballots, one bit
per element saying whether the unit was live (32 x fewer bytes than the activation). Backward:
one kernel reads grad_out and the bits and writes grad_x = live ? grad_out : 0.

Why it is faster than eager: eager's forward reads x and writes y (8 B/element), and its backward
(threshold_backward on the saved y) reads grad_out and y and writes grad_x (12 B/element): 20
B/element. Here the forward moves 8 + 1/8 B and the backward 8 + 1/8 B: 16.25 B/element, about
19% fewer bytes for a step that is nothing but bytes.

Mask layout: elements are taken in groups of 4 (a float4), a warp handles 32 consecutive groups
(a chunk of 128 elements) and stores 4 words for it, word k holding bit `lane` for element
128*chunk + 4*lane + k. The backward's warp reads its chunk's 4 words as one uint4 (every lane
the same address: a broadcast). The bits depend only on the element's flat index, so the
forward and backward each pick the float4 or the scalar path from their own pointers' alignment,
and a tail of n % 4 elements goes through the scalar path of the last group.

Semantics match torch: relu keeps NaN (v < 0 ? 0 : v) and the backward, like threshold_backward,
passes the gradient where NOT (x <= 0) and writes an exact 0 elsewhere (a select, not a multiply).
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
#include <vector>
std::vector<torch::Tensor> relu_mask_forward(torch::Tensor x);
torch::Tensor relu_mask_backward(torch::Tensor grad, torch::Tensor mask);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <vector>

constexpr int kThreads = 256;               // 8 warps; a multiple of 32 (the loops are per warp)
constexpr int kWarpsPerBlock = kThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ float relu1(float v) { return v < 0.0f ? 0.0f : v; }
// threshold_backward(grad, out, 0) keeps grad where !(out <= 0); out > 0 exactly where x > 0,
// and a NaN x gives a NaN out, which keeps its gradient too.
__device__ __forceinline__ bool live(float v) { return !(v <= 0.0f); }

// Number of 128-element chunks (one per warp step) covering n elements.
__host__ __device__ __forceinline__ int64_t num_chunks(int64_t n) { return (((n + 3) >> 2) + 31) >> 5; }

template <bool kVec>
__global__ void __launch_bounds__(kThreads)
relu_mask_fwd_kernel(const float* __restrict__ x, float* __restrict__ y, uint4* __restrict__ mask, int64_t n) {
    const int lane = threadIdx.x & 31;
    const int64_t full_groups = n >> 2;       // groups of 4 entirely inside [0, n)
    const int64_t groups = (n + 3) >> 2;      // the last one may be partial
    const int64_t chunks = num_chunks(n);
    const int64_t first_warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t warp_stride = ((int64_t)gridDim.x * blockDim.x) >> 5;
    // c depends only on the warp, so every lane runs the same iterations and the ballots below
    // always see the full warp.
    for (int64_t c = first_warp; c < chunks; c += warp_stride) {
        const int64_t gi = (c << 5) + lane;
        const int64_t e = gi << 2;
        float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);   // padding: not live, bit 0
        if (gi < full_groups) {
            if (kVec) {
                v = reinterpret_cast<const float4*>(x)[gi];
            } else {
                v.x = x[e]; v.y = x[e + 1]; v.z = x[e + 2]; v.w = x[e + 3];
            }
        } else if (gi < groups) {                 // the partial tail group: 1 to 3 elements
            v.x = x[e];
            if (e + 1 < n) v.y = x[e + 1];
            if (e + 2 < n) v.z = x[e + 2];
        }
        const float4 o = make_float4(relu1(v.x), relu1(v.y), relu1(v.z), relu1(v.w));
        if (gi < full_groups) {
            if (kVec) {
                reinterpret_cast<float4*>(y)[gi] = o;
            } else {
                y[e] = o.x; y[e + 1] = o.y; y[e + 2] = o.z; y[e + 3] = o.w;
            }
        } else if (gi < groups) {
            y[e] = o.x;
            if (e + 1 < n) y[e + 1] = o.y;
            if (e + 2 < n) y[e + 2] = o.z;
        }
        const unsigned bx = __ballot_sync(kFullMask, live(v.x));
        const unsigned by = __ballot_sync(kFullMask, live(v.y));
        const unsigned bz = __ballot_sync(kFullMask, live(v.z));
        const unsigned bw = __ballot_sync(kFullMask, live(v.w));
        if (lane == 0) mask[c] = make_uint4(bx, by, bz, bw);
    }
}

template <bool kVec>
__global__ void __launch_bounds__(kThreads)
relu_mask_bwd_kernel(const float* __restrict__ g, const uint4* __restrict__ mask, float* __restrict__ gx, int64_t n) {
    const int lane = threadIdx.x & 31;
    const unsigned bit = 1u << lane;
    const int64_t full_groups = n >> 2;
    const int64_t groups = (n + 3) >> 2;
    const int64_t chunks = num_chunks(n);
    const int64_t first_warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t warp_stride = ((int64_t)gridDim.x * blockDim.x) >> 5;
    for (int64_t c = first_warp; c < chunks; c += warp_stride) {
        const uint4 m = mask[c];                  // one address for the whole warp: a broadcast
        const int64_t gi = (c << 5) + lane;
        const int64_t e = gi << 2;
        if (gi < full_groups) {
            float4 v;
            if (kVec) {
                v = reinterpret_cast<const float4*>(g)[gi];
            } else {
                v.x = g[e]; v.y = g[e + 1]; v.z = g[e + 2]; v.w = g[e + 3];
            }
            v.x = (m.x & bit) ? v.x : 0.0f;
            v.y = (m.y & bit) ? v.y : 0.0f;
            v.z = (m.z & bit) ? v.z : 0.0f;
            v.w = (m.w & bit) ? v.w : 0.0f;
            if (kVec) {
                reinterpret_cast<float4*>(gx)[gi] = v;
            } else {
                gx[e] = v.x; gx[e + 1] = v.y; gx[e + 2] = v.z; gx[e + 3] = v.w;
            }
        } else if (gi < groups) {
            gx[e] = (m.x & bit) ? g[e] : 0.0f;
            if (e + 1 < n) gx[e + 1] = (m.y & bit) ? g[e + 1] : 0.0f;
            if (e + 2 < n) gx[e + 2] = (m.z & bit) ? g[e + 2] : 0.0f;
        }
    }
}

static unsigned int grid_for(int64_t chunks) {
    int64_t blocks = (chunks + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks > 2147483647LL) blocks = 2147483647LL;   // the grid-stride loop covers the rest
    if (blocks < 1) blocks = 1;
    return (unsigned int)blocks;
}

static bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

std::vector<torch::Tensor> relu_mask_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "relu_mask_forward: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "relu_mask_forward: x must be float32");
    TORCH_CHECK(x.is_contiguous(), "relu_mask_forward: x must be contiguous");
    const at::cuda::CUDAGuard guard(x.device());
    const int64_t n = x.numel();
    auto y = torch::empty_like(x);
    auto mask = torch::empty({num_chunks(n) * 4}, x.options().dtype(torch::kInt32));
    if (n == 0) return {y, mask};
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    uint4* mp = reinterpret_cast<uint4*>(mask.data_ptr<int32_t>());   // fresh allocation: 16-byte aligned
    auto stream = at::cuda::getCurrentCUDAStream();
    const unsigned int blocks = grid_for(num_chunks(n));
    if (aligned16(xp) && aligned16(yp)) {
        relu_mask_fwd_kernel<true><<<blocks, kThreads, 0, stream>>>(xp, yp, mp, n);
    } else {
        relu_mask_fwd_kernel<false><<<blocks, kThreads, 0, stream>>>(xp, yp, mp, n);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return {y, mask};
}

torch::Tensor relu_mask_backward(torch::Tensor grad, torch::Tensor mask) {
    TORCH_CHECK(grad.is_cuda() && mask.is_cuda(), "relu_mask_backward: tensors must be on CUDA");
    TORCH_CHECK(grad.scalar_type() == torch::kFloat32, "relu_mask_backward: grad must be float32");
    TORCH_CHECK(mask.scalar_type() == torch::kInt32, "relu_mask_backward: mask must be int32");
    TORCH_CHECK(grad.is_contiguous() && mask.is_contiguous(), "relu_mask_backward: tensors must be contiguous");
    const int64_t n = grad.numel();
    TORCH_CHECK(mask.numel() == num_chunks(n) * 4, "relu_mask_backward: mask does not match grad's size");
    const at::cuda::CUDAGuard guard(grad.device());
    auto gx = torch::empty_like(grad);
    if (n == 0) return gx;
    const float* gp = grad.data_ptr<float>();
    float* gxp = gx.data_ptr<float>();
    const uint4* mp = reinterpret_cast<const uint4*>(mask.data_ptr<int32_t>());
    TORCH_CHECK(aligned16(mp), "relu_mask_backward: mask must be 16-byte aligned");
    auto stream = at::cuda::getCurrentCUDAStream();
    const unsigned int blocks = grid_for(num_chunks(n));
    if (aligned16(gp) && aligned16(gxp)) {
        relu_mask_bwd_kernel<true><<<blocks, kThreads, 0, stream>>>(gp, mp, gxp, n);
    } else {
        relu_mask_bwd_kernel<false><<<blocks, kThreads, 0, stream>>>(gp, mp, gxp, n);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return gx;
}
"""

_ext = load_inline(
    name="kforge_solution_l6_1_relu_mask",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["relu_mask_forward", "relu_mask_backward"],
    verbose=False,
)


class _ReluMaskFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y, mask = _ext.relu_mask_forward(x.contiguous())
        ctx.save_for_backward(mask)   # 1 bit per element, not the activation
        return y

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return _ext.relu_mask_backward(grad.contiguous(), mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ReluMaskFn.apply(x)
