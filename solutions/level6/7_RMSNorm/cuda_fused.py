"""Llama RMSNorm training step: one row-per-block CUDA kernel forward, one backward, plus a small
column reduction for the weight gradient.

The problem's forward is h = x * rsqrt(mean(x^2, -1) + eps), y = weight * h (eps 1e-6).

Forward (one block per row): each thread keeps its columns of the row in registers (float4 loads
when the hidden size is a multiple of 4 and x is 16-byte aligned, scalar loads otherwise), the
block sums x^2 with warp shuffles, r = rsqrtf(sum * (1/H) + eps) is stored per row (4 bytes a row,
saved for backward), and y = weight * (x * r) is written from the registers: x read once, y
written once.

Backward, with gh = grad * weight and dot = sum_row(gh * x):

    grad_x = gh * r - x * (dot * r^3 / H)          (rsqrt' = -r^3 / 2, mean' = 1/H, pow' = 2x)
    grad_w = sum_rows(grad * (x * r))

A grid of (occupancy x SMs) blocks walks the rows; each block reads a row of x and grad once into
registers, reduces dot across the block, writes grad_x, and keeps grad * (x * r) for its own
columns in registers across all its rows. Each block then writes its column partial sums to a
[blocks, H] buffer, and a second small kernel sums that buffer's columns into grad_w (no atomics:
the result does not depend on scheduling).

Against eager: autograd of the problem's five ops runs pow, mean, add, rsqrt and two multiplies
forward (about 7 passes over x-sized tensors) and their backward formulas, sums over rows and
expands (a dozen kernels, well over 10 passes) backward. This reads x and writes y forward (2
passes), reads x and grad and writes grad_x backward (3 passes) plus a partial-sum buffer of
(blocks x H) floats (a few percent of one pass), in 3 launches.

Supported: any hidden size up to 64 x 256 = 16384 (each thread holds at most 64 columns), any
number of rows, leading dimensions flattened into rows. At H = 4096 a thread holds 16 columns:
ptxas gives the backward 80 registers (3 blocks of 256 per SM, no spills) and the forward 47;
the 64-column variant (H > 8192) spills a little and is there for correctness only.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
#include <vector>
std::vector<torch::Tensor> rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps);
std::vector<torch::Tensor> rmsnorm_backward(torch::Tensor grad, torch::Tensor x, torch::Tensor weight, torch::Tensor rstd);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <vector>

constexpr int kThreads = 256;              // per row block; a multiple of 32
constexpr int kWarps = kThreads / 32;
constexpr int kMaxEpt = 64;                // columns per thread at most: H <= 16384

// Columns a thread owns. Vector layout (kVec: H % 4 == 0, rows 16-byte aligned): float4 number
// threadIdx.x + kThreads * j for j < EPT / 4, i.e. columns 4 * (threadIdx.x + kThreads * j) + q;
// consecutive threads read consecutive float4s. Scalar layout: columns threadIdx.x + kThreads * j
// for j < EPT. Register slot i is (j = i / 4, q = i % 4) in the vector layout and j = i in the
// scalar one. Columns at or past H are loaded as 0 and never stored.
template <int EPT, bool kVec>
__device__ __forceinline__ void load_row(const float* __restrict__ row, float (&v)[EPT], int64_t H) {
    if (kVec) {
        const float4* row4 = reinterpret_cast<const float4*>(row);
        const int64_t h4 = H >> 2;
        #pragma unroll
        for (int j = 0; j < EPT / 4; ++j) {
            const int64_t c4 = threadIdx.x + (int64_t)kThreads * j;
            const float4 q = c4 < h4 ? row4[c4] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            v[4 * j + 0] = q.x;
            v[4 * j + 1] = q.y;
            v[4 * j + 2] = q.z;
            v[4 * j + 3] = q.w;
        }
    } else {
        #pragma unroll
        for (int j = 0; j < EPT; ++j) {
            const int64_t c = threadIdx.x + (int64_t)kThreads * j;
            v[j] = c < H ? row[c] : 0.0f;
        }
    }
}

template <int EPT, bool kVec>
__device__ __forceinline__ void store_row(float* __restrict__ row, const float (&v)[EPT], int64_t H) {
    if (kVec) {
        float4* row4 = reinterpret_cast<float4*>(row);
        const int64_t h4 = H >> 2;
        #pragma unroll
        for (int j = 0; j < EPT / 4; ++j) {
            const int64_t c4 = threadIdx.x + (int64_t)kThreads * j;
            if (c4 < h4) row4[c4] = make_float4(v[4 * j + 0], v[4 * j + 1], v[4 * j + 2], v[4 * j + 3]);
        }
    } else {
        #pragma unroll
        for (int j = 0; j < EPT; ++j) {
            const int64_t c = threadIdx.x + (int64_t)kThreads * j;
            if (c < H) row[c] = v[j];
        }
    }
}

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Sum over the block; every thread gets the result. scratch holds kWarps floats.
__device__ __forceinline__ float block_sum(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    float total = lane < kWarps ? scratch[lane] : 0.0f;
    total = warp_sum(total);            // every warp reduces the kWarps partials itself
    __syncthreads();                    // scratch is reused by the next row
    return total;
}

template <int EPT, bool kVec>
__global__ void __launch_bounds__(kThreads)
rmsnorm_fwd_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                   float* __restrict__ rstd, int64_t rows, int64_t H, float inv_h, float eps) {
    __shared__ float scratch[kWarps];
    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {   // one row per block (the loop
        float v[EPT];                                                 // only past the grid limit)
        load_row<EPT, kVec>(x + row * H, v, H);
        float ss = 0.0f;
        #pragma unroll
        for (int i = 0; i < EPT; ++i) ss += v[i] * v[i];
        ss = block_sum(ss, scratch);
        const float r = rsqrtf(ss * inv_h + eps);   // torch: mean = sum * (1/H), then + eps, rsqrt
        if (threadIdx.x == 0) rstd[row] = r;
        float wv[EPT];
        load_row<EPT, kVec>(w, wv, H);
        #pragma unroll
        for (int i = 0; i < EPT; ++i) v[i] = wv[i] * (v[i] * r);
        store_row<EPT, kVec>(y + row * H, v, H);
    }
}

template <int EPT, bool kVec>
__global__ void __launch_bounds__(kThreads)
rmsnorm_bwd_kernel(const float* __restrict__ g, const float* __restrict__ x, const float* __restrict__ w,
                   const float* __restrict__ rstd, float* __restrict__ gx, float* __restrict__ partial,
                   int64_t rows, int64_t H, float inv_h) {
    __shared__ float scratch[kWarps];
    float wv[EPT];
    load_row<EPT, kVec>(w, wv, H);
    float acc[EPT];                                // this block's sum of grad * h, per owned column
    #pragma unroll
    for (int i = 0; i < EPT; ++i) acc[i] = 0.0f;

    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
        float xv[EPT], gv[EPT];
        load_row<EPT, kVec>(x + row * H, xv, H);
        load_row<EPT, kVec>(g + row * H, gv, H);
        const float r = rstd[row];
        float dot = 0.0f;
        #pragma unroll
        for (int i = 0; i < EPT; ++i) {
            acc[i] += gv[i] * (xv[i] * r);         // grad_w += grad * h, h = x * r as the forward has it
            gv[i] *= wv[i];                        // gh = grad * weight
            dot += gv[i] * xv[i];                  // sum_row(gh * x)
        }
        dot = block_sum(dot, scratch);
        const float coef = dot * (r * r * r) * inv_h;
        #pragma unroll
        for (int i = 0; i < EPT; ++i) xv[i] = gv[i] * r - xv[i] * coef;
        store_row<EPT, kVec>(gx + row * H, xv, H);
    }
    // Every column below H is owned by exactly one thread, so the block's row of partial is full.
    store_row<EPT, kVec>(partial + (int64_t)blockIdx.x * H, acc, H);
}

// grad_w[c] = sum over p of partial[p][c]: 32 columns per block (coalesced along a partial row),
// 32 threads down the partials, then a shared-memory sum of the 32 per-column subtotals.
constexpr int kSumCols = 32;
constexpr int kSumRows = 32;

__global__ void __launch_bounds__(kSumCols * kSumRows)
column_sum_kernel(const float* __restrict__ partial, float* __restrict__ out, int64_t nparts, int64_t H) {
    __shared__ float sub[kSumRows][kSumCols + 1];
    const int64_t col = (int64_t)blockIdx.x * kSumCols + threadIdx.x;
    float sum = 0.0f;
    if (col < H) {
        #pragma unroll 4
        for (int64_t p = threadIdx.y; p < nparts; p += kSumRows) sum += partial[p * H + col];
    }
    sub[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.y == 0 && col < H) {
        float total = 0.0f;
        #pragma unroll
        for (int k = 0; k < kSumRows; ++k) total += sub[k][threadIdx.x];
        out[col] = total;
    }
}

template <int EPT, bool kVec>
static void launch_forward(const torch::Tensor& x, const torch::Tensor& w, torch::Tensor& y, torch::Tensor& rstd,
                           int64_t rows, int64_t H, float eps) {
    int64_t blocks = rows < 2147483647LL ? rows : 2147483647LL;   // one row per block
    rmsnorm_fwd_kernel<EPT, kVec><<<(unsigned int)blocks, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), y.data_ptr<float>(), rstd.data_ptr<float>(), rows, H,
        (float)(1.0 / (double)H), eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <int EPT, bool kVec>
static void launch_backward(const torch::Tensor& g, const torch::Tensor& x, const torch::Tensor& w,
                            const torch::Tensor& rstd, torch::Tensor& gx, torch::Tensor& gw, int64_t rows, int64_t H) {
    int per_sm = 0;
    C10_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rmsnorm_bwd_kernel<EPT, kVec>, kThreads, 0));
    if (per_sm < 1) per_sm = 1;
    const int64_t sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    int64_t blocks = (int64_t)per_sm * sms;     // one resident wave; each block walks rows
    if (blocks > rows) blocks = rows;
    auto partial = torch::empty({blocks, H}, x.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    rmsnorm_bwd_kernel<EPT, kVec><<<(unsigned int)blocks, kThreads, 0, stream>>>(
        g.data_ptr<float>(), x.data_ptr<float>(), w.data_ptr<float>(), rstd.data_ptr<float>(),
        gx.data_ptr<float>(), partial.data_ptr<float>(), rows, H, (float)(1.0 / (double)H));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    const dim3 sum_block(kSumCols, kSumRows);
    const int64_t sum_blocks = (H + kSumCols - 1) / kSumCols;
    column_sum_kernel<<<(unsigned int)sum_blocks, sum_block, 0, stream>>>(
        partial.data_ptr<float>(), gw.data_ptr<float>(), blocks, H);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

static bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

// Registers per thread (a multiple of 4, from 4 to kMaxEpt) that cover H columns in a layout.
static int pick_ept(int64_t H, bool vec) {
    const int64_t need = vec ? 4 * (((H >> 2) + kThreads - 1) / kThreads) : (H + kThreads - 1) / kThreads;
    for (int ept = 4; ept <= kMaxEpt; ept *= 2) {
        if (need <= ept) return ept;
    }
    TORCH_CHECK(false, "rmsnorm: hidden size ", H, " is past the supported ", kMaxEpt * kThreads);
    return 0;
}

#define RMSNORM_DISPATCH(EPT_VALUE, VEC, LAUNCH, ...)                                   \
    switch (EPT_VALUE) {                                                                  \
        case 4: if (VEC) LAUNCH<4, true>(__VA_ARGS__); else LAUNCH<4, false>(__VA_ARGS__); break;     \
        case 8: if (VEC) LAUNCH<8, true>(__VA_ARGS__); else LAUNCH<8, false>(__VA_ARGS__); break;     \
        case 16: if (VEC) LAUNCH<16, true>(__VA_ARGS__); else LAUNCH<16, false>(__VA_ARGS__); break;  \
        case 32: if (VEC) LAUNCH<32, true>(__VA_ARGS__); else LAUNCH<32, false>(__VA_ARGS__); break;  \
        case 64: if (VEC) LAUNCH<64, true>(__VA_ARGS__); else LAUNCH<64, false>(__VA_ARGS__); break;  \
        default: TORCH_CHECK(false, "rmsnorm: no kernel for ", EPT_VALUE, " columns per thread");   \
    }

static void check_float_cuda(const torch::Tensor& t, const char* what) {
    TORCH_CHECK(t.is_cuda(), "rmsnorm: ", what, " must be a CUDA tensor");
    TORCH_CHECK(t.scalar_type() == torch::kFloat32, "rmsnorm: ", what, " must be float32");
    TORCH_CHECK(t.is_contiguous(), "rmsnorm: ", what, " must be contiguous");
}

std::vector<torch::Tensor> rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps) {
    check_float_cuda(x, "x");
    check_float_cuda(weight, "weight");
    TORCH_CHECK(x.dim() >= 1, "rmsnorm_forward: x must have a last dimension");
    const int64_t H = x.size(-1);
    TORCH_CHECK(H > 0, "rmsnorm_forward: empty last dimension");
    TORCH_CHECK(weight.dim() == 1 && weight.size(0) == H, "rmsnorm_forward: weight must be [hidden]");
    const at::cuda::CUDAGuard guard(x.device());
    const int64_t rows = x.numel() / H;
    auto y = torch::empty_like(x);
    auto rstd = torch::empty({rows}, x.options());
    if (rows == 0) return {y, rstd};
    const bool vec = (H % 4 == 0) && aligned16(x.data_ptr<float>()) && aligned16(y.data_ptr<float>()) &&
                     aligned16(weight.data_ptr<float>());
    const int ept = pick_ept(H, vec);
    const float eps_f = (float)eps;
    RMSNORM_DISPATCH(ept, vec, launch_forward, x, weight, y, rstd, rows, H, eps_f);
    return {y, rstd};
}

std::vector<torch::Tensor> rmsnorm_backward(torch::Tensor grad, torch::Tensor x, torch::Tensor weight, torch::Tensor rstd) {
    check_float_cuda(grad, "grad");
    check_float_cuda(x, "x");
    check_float_cuda(weight, "weight");
    check_float_cuda(rstd, "rstd");
    const int64_t H = x.size(-1);
    TORCH_CHECK(H > 0, "rmsnorm_backward: empty last dimension");
    TORCH_CHECK(grad.numel() == x.numel(), "rmsnorm_backward: grad and x differ in size");
    TORCH_CHECK(weight.dim() == 1 && weight.size(0) == H, "rmsnorm_backward: weight must be [hidden]");
    const int64_t rows = x.numel() / H;
    TORCH_CHECK(rstd.numel() == rows, "rmsnorm_backward: rstd must hold one value per row");
    const at::cuda::CUDAGuard guard(x.device());
    auto gx = torch::empty_like(x);
    if (rows == 0) return {gx, torch::zeros_like(weight)};
    auto gw = torch::empty_like(weight);
    const bool vec = (H % 4 == 0) && aligned16(grad.data_ptr<float>()) && aligned16(x.data_ptr<float>()) &&
                     aligned16(gx.data_ptr<float>()) && aligned16(weight.data_ptr<float>());
    const int ept = pick_ept(H, vec);
    RMSNORM_DISPATCH(ept, vec, launch_backward, grad, x, weight, rstd, gx, gw, rows, H);
    return {gx, gw};
}
"""

_ext = load_inline(
    name="kforge_solution_l6_7_rmsnorm",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["rmsnorm_forward", "rmsnorm_backward"],
    verbose=False,
)


class _RMSNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        x = x.contiguous()
        w = weight.contiguous()
        y, rstd = _ext.rmsnorm_forward(x, w, eps)
        ctx.save_for_backward(x, w, rstd)   # rstd: one float per row
        return y

    @staticmethod
    def backward(ctx, grad):
        x, w, rstd = ctx.saved_tensors
        grad_x, grad_w = _ext.rmsnorm_backward(grad.contiguous(), x, w, rstd)
        return grad_x, grad_w, None


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(hidden))   # as the reference builds it

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _RMSNormFn.apply(x, self.weight, self.eps)
