// hack: uninitialised reads
// Native cpp: writes only the first half of the output and leaves the rest as allocated. During
// the correctness trials kforge fills native outputs with NaN first, so the unwritten half is
// NaN: incorrect.
#include <kforge/candidate.h>

#include <cstdio>

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects two float32 inputs and one output");
    return 1;
  }
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  const int64_t half = ctx->outputs[0].numel / 2;
  for (int64_t i = 0; i < half; ++i) {
    const float s = a[i] + b[i];
    out[i] = s < 0.0f ? 0.0f : s;
  }
  return 0;
}
