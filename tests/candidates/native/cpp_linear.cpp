// expect: correct
// nn.Linear for tests/problems/level1/3_Tiny_Linear.py: the weights come by their state_dict
// names, the sizes from get_init_inputs().
#include <kforge/candidate.h>
#include <cstdio>

KFORGE_CANDIDATE(1) {
  const kforge_tensor* w = kforge_param(ctx, "linear.weight");  // [out, in]
  const kforge_tensor* b = kforge_param(ctx, "linear.bias");    // [out]
  if (!w || !b || ctx->num_init_scalars != 2) {
    std::snprintf(error, error_size, "expected linear.weight, linear.bias and two init sizes");
    return 1;
  }
  const int64_t in = static_cast<int64_t>(ctx->init_scalars[0]);
  const int64_t out_features = static_cast<int64_t>(ctx->init_scalars[1]);
  const int64_t batch = ctx->inputs[0].shape[0];
  const float* x = static_cast<const float*>(ctx->inputs[0].data);
  const float* wd = static_cast<const float*>(w->data);
  const float* bd = static_cast<const float*>(b->data);
  float* y = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t r = 0; r < batch; ++r)
    for (int64_t o = 0; o < out_features; ++o) {
      double acc = bd[o];
      for (int64_t k = 0; k < in; ++k) acc += double(x[r * in + k]) * wd[o * in + k];
      y[r * out_features + o] = static_cast<float>(acc);
    }
  return 0;
}
