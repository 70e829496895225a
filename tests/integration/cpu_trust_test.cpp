// The trust corpora on the CPU: every hack of tests/adversarial/ that runs without a GPU gets the
// verdict and rule its expected.json names, and every honest candidate of tests/legit/ passes.
#include <gtest/gtest.h>

#include "support/trust_corpus.hpp"

namespace kforge::testing {
namespace {

TEST(CpuTrust, EveryHackIsCaught) { expect_trust_corpus("tests/adversarial", "cpu", 20); }

TEST(CpuTrust, EveryHonestCandidatePasses) { expect_trust_corpus("tests/legit", "cpu", 10, /*honest=*/true); }

}  // namespace
}  // namespace kforge::testing
