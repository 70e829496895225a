// expect: incorrect
// Writes only the first half of its output; the rest keeps the harness's NaN poison.
#include <kforge/candidate.h>

KFORGE_CANDIDATE(1) {
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel / 2; ++i) {
    float s = a[i] + b[i];
    out[i] = s > 0.0f ? s : 0.0f;
  }
  return 0;
}
