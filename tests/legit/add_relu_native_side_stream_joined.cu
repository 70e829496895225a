// legit (GPU): the native side-stream pattern done right, the twin of the adversarial
// side_stream_native.cu: its own non-blocking stream waits for ctx->stream through an event, runs
// relu(a + b) there, and ctx->stream waits for it through a second event before forward returns.
// No host synchronisation anywhere, so the stream stays held while it launches.
#include <kforge/candidate.h>

#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_relu(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                         int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const float v = a[i] + b[i];
    out[i] = v < 0.0f ? 0.0f : v;
  }
}

static cudaStream_t g_side = nullptr;
static cudaEvent_t g_inputs_ready = nullptr, g_output_ready = nullptr;

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects two float32 inputs and one output");
    return 1;
  }
  if (!g_side && (cudaStreamCreateWithFlags(&g_side, cudaStreamNonBlocking) != cudaSuccess ||
                  cudaEventCreateWithFlags(&g_inputs_ready, cudaEventDisableTiming) != cudaSuccess ||
                  cudaEventCreateWithFlags(&g_output_ready, cudaEventDisableTiming) != cudaSuccess)) {
    std::snprintf(error, error_size, "could not create the side stream and its events");
    return 1;
  }
  const auto caller = static_cast<cudaStream_t>(ctx->stream);
  cudaEventRecord(g_inputs_ready, caller);  // inputs copied and outputs poisoned on the caller's stream
  cudaStreamWaitEvent(g_side, g_inputs_ready, 0);
  const int64_t n = ctx->outputs[0].numel;
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 65535 * 16) blocks = 65535 * 16;
  if (blocks < 1) blocks = 1;
  add_relu<<<static_cast<unsigned>(blocks), threads, 0, g_side>>>(static_cast<const float*>(ctx->inputs[0].data),
                                                                  static_cast<const float*>(ctx->inputs[1].data),
                                                                  static_cast<float*>(ctx->outputs[0].data), n);
  cudaEventRecord(g_output_ready, g_side);
  cudaStreamWaitEvent(caller, g_output_ready, 0);  // the join: ctx->stream is ordered after the kernel
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::snprintf(error, error_size, "launch failed: %s", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
