// legit: relu(a + b) in the native cpp format, split over up to 4 std::threads that are all joined
// before forward returns (no thread outlives the call).
#include <kforge/candidate.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

static void add_relu_range(const float* a, const float* b, float* out, int64_t from, int64_t to) {
  for (int64_t i = from; i < to; ++i) {
    const float s = a[i] + b[i];
    out[i] = s < 0.0f ? 0.0f : s;
  }
}

KFORGE_CANDIDATE(1) {
  if (ctx->num_inputs != 2 || ctx->num_outputs != 1 || ctx->inputs[0].dtype != KFORGE_FLOAT32 ||
      ctx->inputs[1].dtype != KFORGE_FLOAT32 || ctx->inputs[0].numel != ctx->inputs[1].numel ||
      ctx->outputs[0].numel != ctx->inputs[0].numel) {
    std::snprintf(error, error_size, "expects two float32 inputs of one shape and one output of that shape");
    return 1;
  }
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  const int64_t n = ctx->outputs[0].numel;
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(4, n / 4096));
  const int64_t step = (n + parts - 1) / parts;
  std::vector<std::thread> workers;
  for (int64_t p = 1; p < parts; ++p) {
    const int64_t from = p * step, to = std::min(n, from + step);
    if (from < to) workers.emplace_back(add_relu_range, a, b, out, from, to);
  }
  add_relu_range(a, b, out, 0, std::min(n, step));  // the calling thread takes the first part
  for (auto& t : workers) t.join();
  return 0;
}
