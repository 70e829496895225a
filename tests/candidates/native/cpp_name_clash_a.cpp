// expect: correct
// Exports the same helper name as cpp_name_clash_b.cpp (whose body is wrong): evaluated first in one
// worker, with _b after it, each must call its own.
#include <kforge/candidate.h>

extern "C" __attribute__((visibility("default"))) float kforge_test_helper(float s) {
  return s > 0.0f ? s : 0.0f;
}

KFORGE_CANDIDATE(1) {
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) out[i] = kforge_test_helper(a[i] + b[i]);
  return 0;
}
