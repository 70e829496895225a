// hack: caching/replay
// Native cpp: a static call counter; honest for the first 12 calls, then returns 0 without writing
// the outputs, betting the harness hands back last call's output buffer. Fresh timed inputs make
// the stale (or uninitialised) output differ from the reference: rejected with rule timing-recheck
// (or incorrect, depending on what the unwritten buffer holds and how kforge files it).
#include <kforge/candidate.h>

#include <cstdio>

static long g_calls = 0;

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects two float32 inputs and one output");
    return 1;
  }
  if (++g_calls > 12) return 0;  // "the previous output is still there"
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) {
    const float s = a[i] + b[i];
    out[i] = s < 0.0f ? 0.0f : s;
  }
  return 0;
}
