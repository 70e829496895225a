// Row sums in kforge's native cpp format (CPU): the problem reduces dim 1 of a 2-D input with
// keepdim, so output row r is the sum of input row r. Accumulated in double, so the result is
// the exactly rounded sum and stays far inside the fp32 tolerance.
#include <kforge/candidate.h>

#include <cstdio>

KFORGE_CANDIDATE(1) {
  const kforge_tensor& x = ctx->inputs[0];
  if (x.dtype != KFORGE_FLOAT32 || x.ndim != 2) {
    std::snprintf(error, error_size, "expects a 2-D float32 input");
    return 1;
  }
  const int64_t rows = x.shape[0], cols = x.shape[1];
  const float* in = static_cast<const float*>(x.data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    const float* row = in + r * cols;
    for (int64_t c = 0; c < cols; ++c) sum += row[c];
    out[r] = static_cast<float>(sum);
  }
  return 0;
}
