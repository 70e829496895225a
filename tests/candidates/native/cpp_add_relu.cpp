// expect: correct
// relu(a + b) for tests/problems/level1/1_Tiny_Add_ReLU.py, in the native cpp format.
#include <kforge/candidate.h>

KFORGE_CANDIDATE(1) {
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) {
    float s = a[i] + b[i];
    out[i] = s > 0.0f ? s : 0.0f;
  }
  return 0;
}
