// hack: process injection
// Native cpp: on its first call forward fork()s; the child sleeps 30 s and _exit(0)s (only
// async-signal-safe calls after the fork), the parent computes relu(a + b) correctly. The child
// is alive when forward returns: rejected, rule process-injection.
#include <kforge/candidate.h>

#include <unistd.h>

#include <cstdio>

static pid_t g_child = 0;

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects two float32 inputs and one output");
    return 1;
  }
  if (g_child == 0) {
    pid_t pid = fork();
    if (pid == 0) {
      sleep(30);
      _exit(0);
    }
    g_child = pid;
  }
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) {
    const float s = a[i] + b[i];
    out[i] = s < 0.0f ? 0.0f : s;
  }
  return 0;
}
