// expect: compile_error
// A missing semicolon on line 8: the diagnostics name this file and that line.
#include <kforge/candidate.h>

KFORGE_CANDIDATE(1) {
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) out[i] = 0.0f;
  return 0
}
