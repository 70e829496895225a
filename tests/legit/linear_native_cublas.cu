// legit (GPU): nn.Linear in the native cuda format: cublasSgemm on the handle kforge gives (bound
// to ctx->stream; fp32 math, no TF32 requested), then a kernel adding the bias. Weight and bias by
// their state_dict names, sizes from the tensors.
#include <kforge/candidate.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

__global__ void add_bias(float* __restrict__ y, const float* __restrict__ bias, int64_t rows, int64_t cols) {
  const int64_t n = rows * cols;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    y[i] += bias[i % cols];
}

KFORGE_CANDIDATE(1) {
  const kforge_tensor* w = kforge_param(ctx, "linear.weight");   // [out, in], row-major
  const kforge_tensor* bias = kforge_param(ctx, "linear.bias");  // [out]
  if (!w || !bias || !ctx->cublas_handle || ctx->num_inputs != 1 || ctx->num_outputs != 1 ||
      ctx->inputs[0].ndim != 2 || w->ndim != 2 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "needs a float32 [batch, in] input, linear.weight, linear.bias and a cuBLAS handle");
    return 1;
  }
  const kforge_tensor& x = ctx->inputs[0];
  const int64_t batch = x.shape[0], in = x.shape[1], out = w->shape[0];
  if (w->shape[1] != in || bias->numel != out || ctx->outputs[0].numel != batch * out) {
    std::snprintf(error, error_size, "shape mismatch between input, weight, bias and output");
    return 1;
  }
  float* y = static_cast<float*>(ctx->outputs[0].data);
  auto handle = static_cast<cublasHandle_t>(ctx->cublas_handle);
  // cuBLAS is column-major: it sees row-major W[out, in] as W^T (in x out) and X[batch, in] as X^T
  // (in x batch). Row-major Y = X W^T is column-major Y^T (out x batch) = op_T(W^T) * X^T = W X^T.
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(out), static_cast<int>(batch),
                                  static_cast<int>(in), &one, static_cast<const float*>(w->data), static_cast<int>(in),
                                  static_cast<const float*>(x.data), static_cast<int>(in), &zero, y,
                                  static_cast<int>(out));
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::snprintf(error, error_size, "cublasSgemm failed with status %d", static_cast<int>(st));
    return 1;
  }
  const int threads = 256;
  const int64_t n = batch * out;
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>((n + threads - 1) / threads, 65535 * 16));
  add_bias<<<static_cast<unsigned>(blocks), threads, 0, static_cast<cudaStream_t>(ctx->stream)>>>(
      y, static_cast<const float*>(bias->data), batch, out);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::snprintf(error, error_size, "bias launch failed: %s", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
