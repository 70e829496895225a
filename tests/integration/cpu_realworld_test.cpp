// tests/realworld/ on the CPU: candidates written the way language models write KernelBench
// solutions (the worked example's shape, AT_DISPATCH, OpenMP pragmas, odd flags, pasted problem
// code), each with the verdict it deserves. A C++ load_inline build costs 20-60 s on a 2-core
// machine, so every CI run takes the sample marked `ci`; KFORGE_HEAVY_TESTS=1 (the GPU machine's
// tools/gpu-check.sh) runs every case that needs no GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "support/trust_corpus.hpp"

namespace kforge::testing {
namespace {

constexpr int kBuildsInsideTheJob = 600;  // --timeout: the job includes the candidate's build

TEST(CpuRealworld, TheCiSampleGetsItsVerdicts) {
  expect_trust_corpus("tests/realworld", "cpu", 8, /*honest=*/false, /*ci_only=*/true, kBuildsInsideTheJob);
}

TEST(CpuRealworld, EveryCpuCandidateGetsItsVerdict) {
  const char* heavy = std::getenv("KFORGE_HEAVY_TESTS");
  if (!heavy || std::string(heavy) != "1") GTEST_SKIP() << "the whole corpus: set KFORGE_HEAVY_TESTS=1";
  expect_trust_corpus("tests/realworld", "cpu", 25, /*honest=*/false, /*ci_only=*/false, kBuildsInsideTheJob);
}

}  // namespace
}  // namespace kforge::testing
