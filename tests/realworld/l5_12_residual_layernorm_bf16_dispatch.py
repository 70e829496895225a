import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Fused residual add + LayerNorm. One block per token row:
#   new_residual = bf16(x + residual)            (stored, and it is what gets normalised)
#   normed = bf16((new_residual - mean) * rstd * weight + bias), statistics in fp32
# AT_DISPATCH maps at::BFloat16 / at::Half onto the native CUDA types so the kernel can use the
# cuda_bf16.h / cuda_fp16.h intrinsics directly.
residual_ln_source = """
#include <torch/extension.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

template <typename T> struct CudaType { using type = T; };
template <> struct CudaType<at::Half> { using type = __half; };
template <> struct CudaType<at::BFloat16> { using type = __nv_bfloat16; };

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(double v) { return static_cast<float>(v); }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ double from_float<double>(float v) { return static_cast<double>(v); }
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16(v); }

__device__ __forceinline__ float block_reduce_sum(float v, float* shared) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
    __syncthreads();  // shared may still hold the previous reduction
    if (lane == 0) shared[wid] = v;
    __syncthreads();
    const int nwarps = (blockDim.x + 31) >> 5;
    v = (threadIdx.x < nwarps) ? shared[threadIdx.x] : 0.0f;
    if (wid == 0) {
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
        if (lane == 0) shared[0] = v;
    }
    __syncthreads();
    return shared[0];
}

template <typename T>
__global__ void residual_add_layernorm_kernel(const T* __restrict__ x,
                                              const T* __restrict__ residual,
                                              const T* __restrict__ weight,
                                              const T* __restrict__ bias,
                                              T* __restrict__ normed,
                                              T* __restrict__ residual_out,
                                              int hidden,
                                              float eps) {
    __shared__ float red[32];
    const size_t base = (size_t)blockIdx.x * hidden;
    const T* xr = x + base;
    const T* rr = residual + base;
    T* nr = normed + base;
    T* ro = residual_out + base;

    // pass 1: residual add, rounded to the storage type, and its sum
    float sum = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const T s = from_float<T>(to_float(xr[i]) + to_float(rr[i]));
        ro[i] = s;
        sum += to_float(s);
    }
    const float mean = block_reduce_sum(sum, red) / hidden;

    // pass 2: variance around the mean (two-pass, same elements this thread wrote)
    float sq = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float d = to_float(ro[i]) - mean;
        sq += d * d;
    }
    const float var = block_reduce_sum(sq, red) / hidden;
    const float rstd = rsqrtf(var + eps);

    // pass 3: normalise, scale, shift
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float v = (to_float(ro[i]) - mean) * rstd;
        nr[i] = from_float<T>(v * to_float(weight[i]) + to_float(bias[i]));
    }
}

std::vector<torch::Tensor> residual_add_layernorm(torch::Tensor x, torch::Tensor residual,
                                                  torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && residual.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.sizes() == residual.sizes(), "x and residual must have the same shape");
    auto xc = x.contiguous();
    auto rc = residual.contiguous().to(xc.scalar_type());
    auto w = weight.contiguous().to(xc.scalar_type());
    auto b = bias.contiguous().to(xc.scalar_type());
    const int hidden = xc.size(-1);
    TORCH_CHECK(w.numel() == hidden && b.numel() == hidden, "weight/bias must match the hidden size");
    const int64_t rows = xc.numel() / hidden;

    auto normed = torch::empty_like(xc);
    auto residual_out = torch::empty_like(xc);
    if (rows == 0) return {normed, residual_out};

    const int threads = 512;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES_AND2(at::ScalarType::Half, at::ScalarType::BFloat16, xc.scalar_type(),
                                    "residual_add_layernorm", [&] {
        using cuda_t = typename CudaType<scalar_t>::type;
        residual_add_layernorm_kernel<cuda_t><<<(unsigned int)rows, threads, 0, stream>>>(
            reinterpret_cast<const cuda_t*>(xc.data_ptr<scalar_t>()),
            reinterpret_cast<const cuda_t*>(rc.data_ptr<scalar_t>()),
            reinterpret_cast<const cuda_t*>(w.data_ptr<scalar_t>()),
            reinterpret_cast<const cuda_t*>(b.data_ptr<scalar_t>()),
            reinterpret_cast<cuda_t*>(normed.data_ptr<scalar_t>()),
            reinterpret_cast<cuda_t*>(residual_out.data_ptr<scalar_t>()),
            hidden, static_cast<float>(eps));
    });
    return {normed, residual_out};
}
"""

residual_ln_cpp_source = """
std::vector<torch::Tensor> residual_add_layernorm(torch::Tensor x, torch::Tensor residual,
                                                  torch::Tensor weight, torch::Tensor bias, double eps);
"""

residual_ln = load_inline(
    name="residual_add_layernorm_bf16",
    cpp_sources=residual_ln_cpp_source,
    cuda_sources=residual_ln_source,
    functions=["residual_add_layernorm"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super(ModelNew, self).__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))
        self.bias = nn.Parameter(0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor, residual: torch.Tensor):
        normed, new_residual = residual_ln.residual_add_layernorm(x, residual, self.weight, self.bias, self.eps)
        return normed, new_residual
