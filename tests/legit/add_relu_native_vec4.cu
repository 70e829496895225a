// legit (GPU): relu(a + b) fused in one pass in the native cuda format: float4 loads and stores
// when all three pointers are 16-byte aligned, a scalar kernel for the tail (or everything when
// they are not), launched on ctx->stream. One read of a and b and one write, against the
// reference's separate add and relu kernels: expected faster.
#include <kforge/candidate.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

__device__ __forceinline__ float relu1(float v) { return v < 0.0f ? 0.0f : v; }  // keeps NaN

__global__ void add_relu_vec4(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ out,
                              int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const float4 x = a[i], y = b[i];
    float4 r;
    r.x = relu1(x.x + y.x);
    r.y = relu1(x.y + y.y);
    r.z = relu1(x.z + y.z);
    r.w = relu1(x.w + y.w);
    out[i] = r;
  }
}

__global__ void add_relu_scalar(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                                int64_t from, int64_t n) {
  for (int64_t i = from + blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = relu1(a[i] + b[i]);
}

static bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32 ||
      ctx->inputs[1].dtype != KFORGE_FLOAT32 || ctx->inputs[0].numel != ctx->inputs[1].numel ||
      ctx->outputs[0].numel != ctx->inputs[0].numel) {
    std::snprintf(error, error_size, "expects two float32 inputs of one shape and one output of that shape");
    return 1;
  }
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  auto stream = static_cast<cudaStream_t>(ctx->stream);
  const int64_t n = ctx->outputs[0].numel;
  const int threads = 256;
  const int64_t max_blocks = 0x7fffffff;
  int64_t done = 0;
  if (aligned16(a) && aligned16(b) && aligned16(out)) {
    const int64_t n4 = n / 4;
    if (n4 > 0) {
      const int64_t blocks = std::min<int64_t>((n4 + threads - 1) / threads, max_blocks);
      add_relu_vec4<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
          reinterpret_cast<const float4*>(a), reinterpret_cast<const float4*>(b), reinterpret_cast<float4*>(out), n4);
    }
    done = n4 * 4;
  }
  if (n > done) {
    const int64_t blocks = std::min<int64_t>((n - done + threads - 1) / threads, max_blocks);
    add_relu_scalar<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(a, b, out, done, n);
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::snprintf(error, error_size, "launch failed: %s", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
