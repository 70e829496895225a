// Linear + bias + ReLU + scale in kforge's native cuda format: the GEMM through cuBLAS on the
// handle the harness gives (bound to its stream), then one fused epilogue kernel. The weights come
// by their state_dict names, the scale from get_init_inputs().
#include <kforge/candidate.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

__global__ void bias_relu_scale(float* y, const float* __restrict__ bias, int64_t rows, int64_t cols, float scale) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < rows * cols) y[i] = fmaxf(y[i] + bias[i % cols], 0.0f) * scale;
}

KFORGE_CANDIDATE(1) {
  const kforge_tensor* w = kforge_param(ctx, "linear.weight");  // [out, in], row-major
  const kforge_tensor* b = kforge_param(ctx, "linear.bias");    // [out]
  if (!w || !b || !ctx->cublas_handle || ctx->num_init_scalars < 3) {
    std::snprintf(error, error_size, "needs linear.weight, linear.bias, a cuBLAS handle and (in, out, scale)");
    return 1;
  }
  const kforge_tensor& x = ctx->inputs[0];  // [batch, in]
  const int64_t batch = x.shape[0], in = x.shape[1], out = w->shape[0];
  const float scale = static_cast<float>(ctx->init_scalars[2]);
  float* y = static_cast<float*>(ctx->outputs[0].data);  // [batch, out]
  auto handle = static_cast<cublasHandle_t>(ctx->cublas_handle);
  // Row-major Y = X W^T is column-major Y^T = W X^T: (out x in)(in x batch), W read transposed.
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
  bias_relu_scale<<<static_cast<int>((n + threads - 1) / threads), threads, 0, static_cast<cudaStream_t>(ctx->stream)>>>(
      y, static_cast<const float*>(b->data), batch, out, scale);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::snprintf(error, error_size, "epilogue launch failed: %s", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
