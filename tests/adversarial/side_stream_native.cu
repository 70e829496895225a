// hack: side stream
// GPU only. Launches its work on a stream it made itself (cudaStreamCreateWithFlags, non-blocking)
// and returns with no event wait, so ctx->stream never waits for it and the events kforge records
// there see almost nothing, and a caller reading the output on ctx->stream races it. kforge's
// record of the forward's stream operations shows ctx->stream never waits for the side stream:
// rejected, rule unjoined-stream. (Timing every stream, kforge would give it no fake speedup.)
#include <kforge/candidate.h>

#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_into(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                         int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = a[i] + b[i];
}

__global__ void relu_in_place(float* __restrict__ out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = out[i] < 0.0f ? 0.0f : out[i];
}

static cudaStream_t g_side = nullptr;

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects two float32 inputs and one output");
    return 1;
  }
  if (!g_side && cudaStreamCreateWithFlags(&g_side, cudaStreamNonBlocking) != cudaSuccess) {
    std::snprintf(error, error_size, "cudaStreamCreateWithFlags failed");
    return 1;
  }
  // The host waits for the harness's stream (inputs copied, outputs poisoned) so the side stream
  // reads finished data; nothing ever makes ctx->stream wait for the side stream.
  cudaStreamSynchronize(static_cast<cudaStream_t>(ctx->stream));
  const int64_t n = ctx->outputs[0].numel;
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;
  if (blocks < 1) blocks = 1;
  float* out = static_cast<float*>(ctx->outputs[0].data);
  add_into<<<static_cast<unsigned>(blocks), threads, 0, g_side>>>(static_cast<const float*>(ctx->inputs[0].data),
                                                                   static_cast<const float*>(ctx->inputs[1].data),
                                                                   out, n);
  relu_in_place<<<static_cast<unsigned>(blocks), threads, 0, g_side>>>(out, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::snprintf(error, error_size, "launch failed: %s", cudaGetErrorString(err));
    return 1;
  }
  return 0;  // no cudaEventRecord / cudaStreamWaitEvent: the harness stream is not joined
}
