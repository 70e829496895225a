"""
MinGPT causal self-attention with a fused "scale + causal mask + softmax" kernel.

The reference materialises the scaled scores, a masked_fill copy and the softmax
output. Here the QKV / output projections and the two batched matmuls stay on
cuBLAS; one CUDA kernel reads the raw scores once, applies 1/sqrt(d), the causal
mask (only columns j <= i of row i take part) and the softmax, and writes zeros in
the masked upper triangle.
"""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

causal_softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

// One warp per score row. scores: (rows, T) with rows = B * H * T; query position
// of a row is row % T.
__global__ void causal_softmax_kernel(const float* __restrict__ scores, float* __restrict__ probs,
                                      int rows, int T, float scale) {
    const int warps_per_block = blockDim.x / 32;
    const int row = blockIdx.x * warps_per_block + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const int q = row % T;
    const float* s = scores + (size_t)row * T;
    float* p = probs + (size_t)row * T;

    float m = -FLT_MAX;
    for (int j = lane; j <= q; j += 32) m = fmaxf(m, s[j] * scale);
    m = warp_max(m);

    float sum = 0.f;
    for (int j = lane; j <= q; j += 32) sum += expf(s[j] * scale - m);
    sum = warp_sum(sum);
    const float inv = 1.f / sum;

    for (int j = lane; j < T; j += 32) {
        p[j] = (j <= q) ? expf(s[j] * scale - m) * inv : 0.f;
    }
}

torch::Tensor causal_softmax(torch::Tensor scores, double scale) {
    TORCH_CHECK(scores.is_cuda(), "scores must be CUDA");
    auto s = scores.contiguous();
    const int T = s.size(-1);
    const int rows = s.numel() / T;
    auto out = torch::empty_like(s);
    const int threads = 256;
    const int blocks = (rows + threads / 32 - 1) / (threads / 32);
    causal_softmax_kernel<<<blocks, threads>>>(s.data_ptr<float>(), out.data_ptr<float>(), rows, T, (float)scale);
    return out;
}
"""

causal_softmax_cpp = "torch::Tensor causal_softmax(torch::Tensor scores, double scale);"

causal_softmax_ext = load_inline(
    name="causal_softmax_ext",
    cpp_sources=causal_softmax_cpp,
    cuda_sources=causal_softmax_source,
    functions=["causal_softmax"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, max_seq_len: int):
        super(ModelNew, self).__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        with torch.no_grad():
            self.qkv.weight[: 2 * embed_dim].mul_(2.0)
        causal = torch.tril(torch.ones(max_seq_len, max_seq_len, dtype=torch.bool))
        self.register_buffer("causal", causal.view(1, 1, max_seq_len, max_seq_len))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        d = c // self.num_heads
        q, k, v = self.qkv(x.contiguous()).split(c, dim=2)
        q = q.view(b, t, self.num_heads, d).transpose(1, 2).contiguous()
        k = k.view(b, t, self.num_heads, d).transpose(1, 2).contiguous()
        v = v.view(b, t, self.num_heads, d).transpose(1, 2).contiguous()
        scores = torch.matmul(q, k.transpose(-2, -1)).contiguous()
        probs = causal_softmax_ext.causal_softmax(scores, 1.0 / math.sqrt(d))
        y = torch.matmul(probs, v).transpose(1, 2).contiguous().view(b, t, c)
        return self.out_proj(y)
