// hack: thread injection
// Native cpp: forward computes relu(a + b) correctly but also starts a detached std::thread that
// sleeps 1 s and writes nothing (a stand-in for work finished behind the harness's back). The
// thread is alive when forward returns: rejected, rule thread-injection. The library pins itself
// (RTLD_NODELETE) so a sleeping thread never returns into unmapped code after kforge unloads it.
#include <kforge/candidate.h>

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <thread>

static void pin_this_library() {
  static bool pinned = false;
  if (pinned) return;
  pinned = true;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&pin_this_library), &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32) {
    std::snprintf(error, error_size, "expects two float32 inputs and one output");
    return 1;
  }
  pin_this_library();
  std::thread([] { std::this_thread::sleep_for(std::chrono::seconds(1)); }).detach();
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) {
    const float s = a[i] + b[i];
    out[i] = s < 0.0f ? 0.0f : s;
  }
  return 0;
}
