// expect: correct (GPU only)
// relu(a + b) for tests/problems/level1/1_Tiny_Add_ReLU.py in the native cuda format.
#include <kforge/candidate.h>
#include <cuda_runtime.h>
#include <cstdio>

__global__ void add_relu(const float* a, const float* b, float* out, int64_t n) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = fmaxf(a[i] + b[i], 0.0f);
}

KFORGE_CANDIDATE(1) {
  const int64_t n = ctx->outputs[0].numel;
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  add_relu<<<blocks, threads, 0, static_cast<cudaStream_t>(ctx->stream)>>>(
      static_cast<const float*>(ctx->inputs[0].data), static_cast<const float*>(ctx->inputs[1].data),
      static_cast<float*>(ctx->outputs[0].data), n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::snprintf(error, error_size, "launch failed: %s", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
