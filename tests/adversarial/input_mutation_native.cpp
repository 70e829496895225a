// hack: input mutation
// Native cpp: uses inputs[0] as its scratch buffer (a = relu(a + b) in place), then copies it to
// the output. The output is right, but the harness passes the candidate's own copy of the inputs
// and compares it with the original afterwards: input 0 changed, rejected with rule input-mutation.
#include <kforge/candidate.h>

#include <cstdio>
#include <cstring>

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects two float32 inputs and one output");
    return 1;
  }
  float* a = static_cast<float*>(ctx->inputs[0].data);  // const-ness cast away on purpose
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  const int64_t n = ctx->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) {
    const float s = a[i] + b[i];
    a[i] = s < 0.0f ? 0.0f : s;
  }
  std::memcpy(ctx->outputs[0].data, a, static_cast<size_t>(n) * sizeof(float));
  return 0;
}
