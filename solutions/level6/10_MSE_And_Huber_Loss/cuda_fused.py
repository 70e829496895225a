"""Mean squared error and mean Huber loss (delta 1.0) of one prediction/target pair, training step:
one CUDA pass forward for both losses (plus a one-block finish), one pass backward for the sum of
both gradients.

The problem returns (mse, huber) with d = prediction - target over N elements:

    mse   = sum(d^2) / N
    huber = sum(h(d)) / N,   h(d) = 0.5 d^2 if |d| < delta else delta (|d| - 0.5 delta)

and kforge backpropagates from both with the random scalars g_mse and g_huber, so the gradient
of the prediction (the only one compared) is

    grad_p = (2 / N) d g_mse + (1 / N) h'(d) g_huber,
    h'(d)  = -delta if d <= -delta, delta if d >= delta, d otherwise

(torch's huber_loss_backward, branch for branch: at |d| == delta it gives +-delta, which equals
d there; a nan d stays nan).

Forward, kernel 1: one full wave of blocks (SMs x max threads per SM / 256; at 31-32 registers
a thread, 8 blocks of 256 fit an SM) walks the elements, float4 loads of p and t
(two float4 of each in flight per thread) when both are 16-byte aligned, a scalar path for the
last N % 4 elements (the extra size 13 x 3 x 1001 x 999 is odd) and for unaligned views. Each
thread sums d^2 and h(d) over a float4 in fp32 and adds those to fp64 accumulators; the block
reduces them with shuffles and writes one (sum_sq, sum_h) pair to a [blocks, 2] fp64 buffer.
Kernel 2 (one block) sums that buffer in a fixed order and writes mse and huber. No atomics: for
a given device and N the result does not depend on scheduling (deterministic).

Backward: one kernel reads p, t and the two 0-d grad_outputs (from device memory, no host sync)
and writes grad_p; the target's gradient (-grad_p) only when the target requires one, which it
does not here.

Against eager (passes over a 403 MB image tensor): mse_loss writes the elementwise squared error
(read p and t, write) and means it (read), 4 passes; huber_loss the same, 4 more. Backward runs
mse_loss_backward (read p and t, write) and huber_loss_backward (the same), and autograd adds the
two gradients (read 2, write 1): 9. That is about 17 passes in 7 launches. This reads p and t
once forward (2 passes; the partial buffer is a few KB) and reads p and t and writes grad_p
backward (3 passes): 5 passes in 3 launches.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
#include <vector>
std::vector<torch::Tensor> mse_huber_forward(torch::Tensor pred, torch::Tensor target, double delta);
torch::Tensor mse_huber_backward(torch::Tensor g_mse, torch::Tensor g_huber, torch::Tensor pred,
                                 torch::Tensor target, double delta);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <vector>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

// torch's huber: z = |d|; z < delta ? 0.5 z^2 : delta (z - 0.5 delta).
__device__ __forceinline__ float huber(float d, float delta) {
    const float z = fabsf(d);
    return z < delta ? 0.5f * z * z : delta * (z - 0.5f * delta);
}

// torch's huber_loss_backward without the scale: -delta, delta, or d (nan stays nan).
__device__ __forceinline__ float huber_grad(float d, float delta) {
    return d <= -delta ? -delta : (d >= delta ? delta : d);
}

__device__ __forceinline__ void add_float4(const float4 p, const float4 t, float delta, double& sq, double& hb) {
    const float d0 = p.x - t.x, d1 = p.y - t.y, d2 = p.z - t.z, d3 = p.w - t.w;
    sq += (double)((d0 * d0 + d1 * d1) + (d2 * d2 + d3 * d3));
    hb += (double)((huber(d0, delta) + huber(d1, delta)) + (huber(d2, delta) + huber(d3, delta)));
}

__device__ __forceinline__ double warp_sum(double v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Block partial sums: partial[2 * block] = sum d^2, partial[2 * block + 1] = sum h(d).
template <bool kVec>
__global__ void __launch_bounds__(kThreads)
mse_huber_partial_kernel(const float* __restrict__ p, const float* __restrict__ t, double* __restrict__ partial,
                         int64_t n, float delta) {
    __shared__ double ssq[kWarps];
    __shared__ double shb[kWarps];
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    double sq = 0.0, hb = 0.0;
    if (kVec) {
        const float4* p4 = reinterpret_cast<const float4*>(p);
        const float4* t4 = reinterpret_cast<const float4*>(t);
        const int64_t full = n >> 2;
        int64_t gi = tid;
        for (; gi + stride < full; gi += 2 * stride) {      // two groups in flight per thread
            const float4 pa = p4[gi], ta = t4[gi];
            const float4 pb = p4[gi + stride], tb = t4[gi + stride];
            add_float4(pa, ta, delta, sq, hb);
            add_float4(pb, tb, delta, sq, hb);
        }
        if (gi < full) add_float4(p4[gi], t4[gi], delta, sq, hb);
        const int64_t e = (full << 2) + tid;                 // the last n % 4 elements
        if (e < n) {
            const float d = p[e] - t[e];
            sq += (double)(d * d);
            hb += (double)huber(d, delta);
        }
    } else {
        for (int64_t e = tid; e < n; e += stride) {
            const float d = p[e] - t[e];
            sq += (double)(d * d);
            hb += (double)huber(d, delta);
        }
    }
    sq = warp_sum(sq);
    hb = warp_sum(hb);
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) {
        ssq[warp] = sq;
        shb[warp] = hb;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        double a = 0.0, b = 0.0;
        for (int w = 0; w < kWarps; ++w) {
            a += ssq[w];
            b += shb[w];
        }
        partial[2 * (int64_t)blockIdx.x] = a;
        partial[2 * (int64_t)blockIdx.x + 1] = b;
    }
}

// One block: the partials summed in a fixed order, divided by n.
__global__ void __launch_bounds__(kThreads)
mse_huber_finish_kernel(const double* __restrict__ partial, int64_t nparts, float* __restrict__ mse,
                        float* __restrict__ hub, double n) {
    __shared__ double ssq[kWarps];
    __shared__ double shb[kWarps];
    double sq = 0.0, hb = 0.0;
    for (int64_t k = threadIdx.x; k < nparts; k += kThreads) {
        sq += partial[2 * k];
        hb += partial[2 * k + 1];
    }
    sq = warp_sum(sq);
    hb = warp_sum(hb);
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) {
        ssq[warp] = sq;
        shb[warp] = hb;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        double a = 0.0, b = 0.0;
        for (int w = 0; w < kWarps; ++w) {
            a += ssq[w];
            b += shb[w];
        }
        mse[0] = (float)(a / n);          // n == 0: 0 / 0 = nan, as torch's mean of nothing
        hub[0] = (float)(b / n);
    }
}

// grad_p = (2 / n) d g_mse + (1 / n) h'(d) g_huber.
template <bool kVec>
__global__ void __launch_bounds__(kThreads)
mse_huber_bwd_kernel(const float* __restrict__ p, const float* __restrict__ t, const float* __restrict__ g_mse,
                     const float* __restrict__ g_huber, float* __restrict__ gp, int64_t n, float two_over_n,
                     float inv_n, float delta) {
    const float a = two_over_n * g_mse[0];     // torch: norm (2 / n) * d * grad
    const float b = inv_n * g_huber[0];        // torch: norm (1 / n) * h'(d) * grad
    const int64_t full_groups = n >> 2;
    const int64_t groups = (n + 3) >> 2;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t gi = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; gi < groups; gi += stride) {
        if (kVec && gi < full_groups) {
            const float4 pv = reinterpret_cast<const float4*>(p)[gi];
            const float4 tv = reinterpret_cast<const float4*>(t)[gi];
            const float d0 = pv.x - tv.x, d1 = pv.y - tv.y, d2 = pv.z - tv.z, d3 = pv.w - tv.w;
            float4 o;
            o.x = a * d0 + b * huber_grad(d0, delta);
            o.y = a * d1 + b * huber_grad(d1, delta);
            o.z = a * d2 + b * huber_grad(d2, delta);
            o.w = a * d3 + b * huber_grad(d3, delta);
            reinterpret_cast<float4*>(gp)[gi] = o;
        } else {
            const int64_t e0 = gi << 2;
            #pragma unroll
            for (int k = 0; k < 4; ++k) {
                const int64_t e = e0 + k;
                if (e < n) {
                    const float d = p[e] - t[e];
                    gp[e] = a * d + b * huber_grad(d, delta);
                }
            }
        }
    }
}

static bool aligned16(const void* ptr) { return (reinterpret_cast<uintptr_t>(ptr) & 15u) == 0; }

static void check_input(const torch::Tensor& x, const char* what) {
    TORCH_CHECK(x.is_cuda(), "mse_huber: ", what, " must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "mse_huber: ", what, " must be float32");
    TORCH_CHECK(x.is_contiguous(), "mse_huber: ", what, " must be contiguous");
}

std::vector<torch::Tensor> mse_huber_forward(torch::Tensor pred, torch::Tensor target, double delta) {
    check_input(pred, "prediction");
    check_input(target, "target");
    TORCH_CHECK(pred.sizes() == target.sizes(), "mse_huber_forward: prediction and target must have the same shape");
    TORCH_CHECK(target.device() == pred.device(), "mse_huber_forward: prediction and target on different devices");
    const at::cuda::CUDAGuard guard(pred.device());
    const int64_t n = pred.numel();
    auto mse = torch::empty({}, pred.options());
    auto hub = torch::empty({}, pred.options());
    const float* pp = pred.data_ptr<float>();
    const float* tp = target.data_ptr<float>();
    const bool vec = aligned16(pp) && aligned16(tp);
    // One full wave: ptxas gives the kernel 31-32 registers, so a full SM of threads fits. Read
    // from the device's properties, not cudaOccupancyMaxActiveBlocksPerMultiprocessor: naming a
    // template kernel in host code outside a launch breaks kforge's split build (the host part
    // links against the kernel's internal stub and the module fails to load).
    const cudaDeviceProp* prop = at::cuda::getCurrentDeviceProperties();
    int64_t per_sm = prop->maxThreadsPerMultiProcessor / kThreads;
    if (per_sm < 1) per_sm = 1;
    const int64_t sms = prop->multiProcessorCount;
    const int64_t work = vec ? ((n >> 2) + kThreads - 1) / kThreads : (n + kThreads - 1) / kThreads;
    int64_t blocks = per_sm * sms;               // one resident wave; each thread walks the tensor
    if (blocks > work) blocks = work;
    if (blocks < 1) blocks = 1;
    auto partial = torch::empty({blocks, 2}, pred.options().dtype(torch::kFloat64));
    auto stream = at::cuda::getCurrentCUDAStream();
    if (vec) {
        mse_huber_partial_kernel<true><<<(unsigned int)blocks, kThreads, 0, stream>>>(
            pp, tp, partial.data_ptr<double>(), n, (float)delta);
    } else {
        mse_huber_partial_kernel<false><<<(unsigned int)blocks, kThreads, 0, stream>>>(
            pp, tp, partial.data_ptr<double>(), n, (float)delta);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    mse_huber_finish_kernel<<<1, kThreads, 0, stream>>>(
        partial.data_ptr<double>(), blocks, mse.data_ptr<float>(), hub.data_ptr<float>(), (double)n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return {mse, hub};
}

torch::Tensor mse_huber_backward(torch::Tensor g_mse, torch::Tensor g_huber, torch::Tensor pred,
                                 torch::Tensor target, double delta) {
    check_input(g_mse, "grad of mse");
    check_input(g_huber, "grad of huber");
    check_input(pred, "prediction");
    check_input(target, "target");
    TORCH_CHECK(g_mse.numel() == 1 && g_huber.numel() == 1, "mse_huber_backward: the losses' gradients must be scalars");
    TORCH_CHECK(pred.sizes() == target.sizes(), "mse_huber_backward: prediction and target must have the same shape");
    const at::cuda::CUDAGuard guard(pred.device());
    auto gp = torch::empty_like(pred);
    const int64_t n = pred.numel();
    if (n == 0) return gp;
    const float* pp = pred.data_ptr<float>();
    const float* tp = target.data_ptr<float>();
    float* gpp = gp.data_ptr<float>();
    const int64_t groups = (n + 3) >> 2;
    int64_t blocks = (groups + kThreads - 1) / kThreads;   // one group per thread
    if (blocks > 2147483647LL) blocks = 2147483647LL;       // the grid-stride loop covers the rest
    const float two_over_n = (float)(2.0 / (double)n);
    const float inv_n = (float)(1.0 / (double)n);
    auto stream = at::cuda::getCurrentCUDAStream();
    if (aligned16(pp) && aligned16(tp) && aligned16(gpp)) {
        mse_huber_bwd_kernel<true><<<(unsigned int)blocks, kThreads, 0, stream>>>(
            pp, tp, g_mse.data_ptr<float>(), g_huber.data_ptr<float>(), gpp, n, two_over_n, inv_n, (float)delta);
    } else {
        mse_huber_bwd_kernel<false><<<(unsigned int)blocks, kThreads, 0, stream>>>(
            pp, tp, g_mse.data_ptr<float>(), g_huber.data_ptr<float>(), gpp, n, two_over_n, inv_n, (float)delta);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return gp;
}
"""

_ext = load_inline(
    name="kforge_solution_l6_10_mse_huber",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["mse_huber_forward", "mse_huber_backward"],
    verbose=False,
)


class _MseHuberFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pred, target, delta):
        pred = pred.contiguous()
        target = target.contiguous()
        mse, huber = _ext.mse_huber_forward(pred, target, delta)
        ctx.delta = delta
        ctx.save_for_backward(pred, target)   # the inputs themselves: nothing new is kept
        return mse, huber

    @staticmethod
    def backward(ctx, grad_mse, grad_huber):
        pred, target = ctx.saved_tensors
        grad_pred = _ext.mse_huber_backward(grad_mse.contiguous(), grad_huber.contiguous(), pred, target, ctx.delta)
        grad_target = -grad_pred if ctx.needs_input_grad[1] else None
        return grad_pred, grad_target, None


class ModelNew(nn.Module):
    def __init__(self, delta: float):
        super().__init__()
        self.delta = delta

    def forward(self, prediction: torch.Tensor, target: torch.Tensor):
        return _MseHuberFn.apply(prediction, target, self.delta)
