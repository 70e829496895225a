// The whole trust corpora on a CUDA device (label gpu; skipped without one): every hack of
// tests/adversarial/ is caught, every honest candidate of tests/legit/ passes.
#include <gtest/gtest.h>

#include "pool/devices.hpp"
#include "support/trust_corpus.hpp"

namespace kforge::testing {
namespace {

#define REQUIRE_GPU() \
  if (probe_cuda_devices().count == 0) GTEST_SKIP() << "no CUDA device on this machine"

TEST(GpuTrust, EveryHackIsCaught) {
  REQUIRE_GPU();
  expect_trust_corpus("tests/adversarial", "cuda:0", 30);
}

TEST(GpuTrust, EveryHonestCandidatePasses) {
  REQUIRE_GPU();
  expect_trust_corpus("tests/legit", "cuda:0", 25);
}

}  // namespace
}  // namespace kforge::testing
