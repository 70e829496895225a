// legit: nn.Linear in the native cpp format: weight and bias by their state_dict names through
// kforge_param, sizes from the tensors, double accumulation, every output element written.
#include <kforge/candidate.h>

#include <cstdio>

KFORGE_CANDIDATE(1) {
  const kforge_tensor* w = kforge_param(ctx, "linear.weight");  // [out, in]
  const kforge_tensor* bias = kforge_param(ctx, "linear.bias");  // [out]
  if (!w || !bias || ctx->num_inputs != 1 || ctx->num_outputs != 1 || ctx->inputs[0].ndim != 2 ||
      w->ndim != 2 || ctx->inputs[0].dtype != KFORGE_FLOAT32 || w->dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects a float32 [batch, in] input, linear.weight and linear.bias");
    return 1;
  }
  const kforge_tensor& x = ctx->inputs[0];
  const int64_t batch = x.shape[0], in = x.shape[1], out_features = w->shape[0];
  if (w->shape[1] != in || bias->numel != out_features || ctx->outputs[0].numel != batch * out_features) {
    std::snprintf(error, error_size, "shape mismatch between input, weight, bias and output");
    return 1;
  }
  const float* xd = static_cast<const float*>(x.data);
  const float* wd = static_cast<const float*>(w->data);
  const float* bd = static_cast<const float*>(bias->data);
  float* y = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t r = 0; r < batch; ++r) {
    const float* xr = xd + r * in;
    for (int64_t o = 0; o < out_features; ++o) {
      const float* wr = wd + o * in;  // row o of W: contiguous, like the row of x
      double acc0 = 0.0, acc1 = 0.0;
      int64_t k = 0;
      for (; k + 1 < in; k += 2) {
        acc0 += double(xr[k]) * wr[k];
        acc1 += double(xr[k + 1]) * wr[k + 1];
      }
      if (k < in) acc0 += double(xr[k]) * wr[k];
      y[r * out_features + o] = static_cast<float>(acc0 + acc1 + bd[o]);
    }
  }
  return 0;
}
