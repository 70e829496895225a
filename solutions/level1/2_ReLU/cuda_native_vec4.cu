// ReLU in kforge's native cuda format (include/kforge/candidate.h): float4 loads and stores, one
// per thread, launched on the stream the harness gives. No torch headers: builds in seconds.
#include <kforge/candidate.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

__global__ void relu_vec4(const float4* __restrict__ in, float4* __restrict__ out, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    float4 v = in[i];
    v.x = fmaxf(v.x, 0.0f);
    v.y = fmaxf(v.y, 0.0f);
    v.z = fmaxf(v.z, 0.0f);
    v.w = fmaxf(v.w, 0.0f);
    out[i] = v;
  }
}

__global__ void relu_tail(const float* __restrict__ in, float* __restrict__ out, int64_t from, int64_t n) {
  int64_t i = from + blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

KFORGE_CANDIDATE(1) {
  const kforge_tensor& x = ctx->inputs[0];
  const kforge_tensor& y = ctx->outputs[0];
  if (x.dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects float32 input");
    return 1;
  }
  auto stream = static_cast<cudaStream_t>(ctx->stream);
  const int64_t n = x.numel, n4 = n / 4;  // cudaMalloc'd tensors are 256-byte aligned
  const int threads = 256;
  if (n4 > 0) {
    // One float4 per thread. Capping the grid at a few blocks per SM and striding was measured
    // 6% slower than torch.relu on the H200 (0.546 vs 0.515 ms, 2026-11-30); the stride loop stays
    // for grids larger than the hardware limit.
    const int64_t blocks = std::min<int64_t>((n4 + threads - 1) / threads, 0x7fffffff);
    relu_vec4<<<static_cast<int>(blocks), threads, 0, stream>>>(static_cast<const float4*>(x.data),
                                                                 static_cast<float4*>(y.data), n4);
  }
  if (n - 4 * n4 > 0)
    relu_tail<<<1, threads, 0, stream>>>(static_cast<const float*>(x.data), static_cast<float*>(y.data), 4 * n4, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::snprintf(error, error_size, "launch failed: %s", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
