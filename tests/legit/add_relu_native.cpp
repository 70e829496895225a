// legit: relu(a + b) in the native cpp format; sizes from the tensors, every output element written.
#include <kforge/candidate.h>

#include <cstdio>

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
  const int64_t n = ctx->outputs[0].numel;
  for (int64_t i = 0; i < n; ++i) {
    const float s = a[i] + b[i];
    out[i] = s < 0.0f ? 0.0f : s;  // NaN stays NaN, like torch.relu
  }
  return 0;
}
