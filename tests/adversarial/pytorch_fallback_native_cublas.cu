// hack: PyTorch fallback
// GPU only. nn.Linear in the native cuda format with no kernel of its own: cublasSgemm computes
// X W^T, and a rank-1 update (cublasSger, bias times a vector of ones) adds the bias. Correct, but
// every kernel is cuBLAS's. The native cuda format requires at least one __global__ kernel, so
// kforge refuses it when building: compile_error (in a .py candidate the same fallback meets the
// runtime policy, --fallback strict: see pytorch_fallback_inline_aten.py).
#include <kforge/candidate.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

KFORGE_CANDIDATE(1) {
  const kforge_tensor* w = kforge_param(ctx, "linear.weight");   // [out, in], row-major
  const kforge_tensor* bias = kforge_param(ctx, "linear.bias");  // [out]
  if (!w || !bias || !ctx->cublas_handle || ctx->num_inputs != 1 || ctx->num_outputs != 1 ||
      ctx->inputs[0].ndim != 2 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "needs a float32 [batch, in] input, linear.weight, linear.bias and a cuBLAS handle");
    return 1;
  }
  const kforge_tensor& x = ctx->inputs[0];
  const int batch = static_cast<int>(x.shape[0]), in = static_cast<int>(x.shape[1]), out = static_cast<int>(w->shape[0]);
  // A column of ones for the rank-1 update, copied up once (a copy, not a kernel).
  static float* ones = nullptr;
  static int ones_len = 0;
  if (ones_len < batch) {
    if (ones) cudaFree(ones);
    std::vector<float> host(batch, 1.0f);
    if (cudaMalloc(&ones, sizeof(float) * batch) != cudaSuccess ||
        cudaMemcpy(ones, host.data(), sizeof(float) * batch, cudaMemcpyHostToDevice) != cudaSuccess) {
      std::snprintf(error, error_size, "could not make the ones vector");
      return 1;
    }
    ones_len = batch;
  }
  float* y = static_cast<float*>(ctx->outputs[0].data);
  auto handle = static_cast<cublasHandle_t>(ctx->cublas_handle);
  const float one = 1.0f, zero = 0.0f;
  // Column-major view: Y^T (out x batch) = W X^T, then Y^T += bias * ones^T.
  if (cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, out, batch, in, &one, static_cast<const float*>(w->data), in,
                  static_cast<const float*>(x.data), in, &zero, y, out) != CUBLAS_STATUS_SUCCESS ||
      cublasSger(handle, out, batch, &one, static_cast<const float*>(bias->data), 1, ones, 1, y, out) !=
          CUBLAS_STATUS_SUCCESS) {
    std::snprintf(error, error_size, "cuBLAS failed");
    return 1;
  }
  return 0;
}
