// hack: batch-and-skip
// GPU only. Honest for its first 12 calls, then launches its kernel only on even-numbered calls;
// on the odd ones it returns at once without writing the output, hoping the freshly allocated
// output block is last call's (the caching allocator often hands the same block back). The timed
// outputs are compared with the reference on fresh inputs: rejected with rule timing-recheck.
#include <kforge/candidate.h>

#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_relu(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                         int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = fmaxf(a[i] + b[i], 0.0f);
}

static long g_calls = 0;

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects two float32 inputs and one output");
    return 1;
  }
  ++g_calls;
  if (g_calls > 12 && g_calls % 2 == 1) return 0;  // skipped: output left as allocated
  const int64_t n = ctx->outputs[0].numel;
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;
  if (blocks < 1) blocks = 1;
  add_relu<<<static_cast<unsigned>(blocks), threads, 0, static_cast<cudaStream_t>(ctx->stream)>>>(
      static_cast<const float*>(ctx->inputs[0].data), static_cast<const float*>(ctx->inputs[1].data),
      static_cast<float*>(ctx->outputs[0].data), n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::snprintf(error, error_size, "launch failed: %s", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
