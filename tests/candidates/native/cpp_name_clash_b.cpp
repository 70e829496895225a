// expect: incorrect
// Exports the same helper name as cpp_name_clash_a.cpp, with a wrong body (doubles its input).
// Evaluated after _a in one worker it must call its own helper and fail; had it bound to _a's
// symbol it would pass, and name clashes between candidates would go unnoticed.
#include <kforge/candidate.h>

extern "C" __attribute__((visibility("default"))) float kforge_test_helper(float s) { return 2.0f * s; }

KFORGE_CANDIDATE(1) {
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) out[i] = kforge_test_helper(a[i] + b[i]);
  return 0;
}
