// The whole shipped suite lints clean on a CUDA device (label gpu; skipped without one): the run
// rules at the GPU sizes, the 1-15 ms (levels 1-2) and 50 ms (levels 3 and 5) windows, and peak
// memory under 60 GiB, and on levels 6 and 7 no host-bound step.
#include <gtest/gtest.h>

#include "pool/devices.hpp"
#include "support/command.hpp"

namespace kforge::testing {
namespace {

TEST(GpuLint, ShippedSuiteLintsClean) {
  if (probe_cuda_devices().count == 0) GTEST_SKIP() << "no CUDA device on this machine";
  auto r = run_kforge({"problems", "lint", "--device", "cuda"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 of "), std::string::npos) << r.out;
}

// The host-bound rule: a training step of 300 dependent small updates is queued far slower than
// its kernels run; the GPU-bound level-6 steps are checked by the test above.
TEST(GpuRules, AHostBoundStepIsLinted) {
  if (probe_cuda_devices().count == 0) GTEST_SKIP() << "no CUDA device on this machine";
  auto r = run_kforge({"problems", "lint", "--device", "cuda", source_path("tests/problems/lint/level6/2_Host_Bound_Loop_Train.py")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("host-bound: queueing a call takes"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace kforge::testing
