// The whole shipped suite lints clean on a CUDA device (label gpu; skipped without one): the run
// rules at the GPU sizes, the 1-15 ms (levels 1-2) and 50 ms (levels 3 and 5) windows, and peak
// memory under 60 GiB, and no host-bound call.
#include <gtest/gtest.h>

#include <map>
#include <string>

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

// The host-bound rule, both ways it fires: a training step of 60 dependent small updates is queued
// far slower than its kernels run (the ratio); a step that reads a value back with .item() waits for
// the GPU while it is queued (the synchronisation). The GPU-bound level-6 steps are checked above.
TEST(GpuRules, AHostBoundStepIsLinted) {
  if (probe_cuda_devices().count == 0) GTEST_SKIP() << "no CUDA device on this machine";
  auto r = run_kforge({"problems", "lint", "--device", "cuda", "--json",
                       source_path("tests/problems/lint/level6/2_Host_Bound_Loop_Train.py"),
                       source_path("tests/problems/lint/level6/3_Host_Sync_Train.py")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  std::map<std::string, std::string> host_bound;  // problem id -> its host-bound message
  for (const auto& line : r.json_lines())
    for (const auto& finding : line.at("findings"))
      if (finding.at("rule") == "host-bound") host_bound[line.at("id")] = finding.at("message").get<std::string>();
  ASSERT_EQ(host_bound.size(), 2u) << r.out;
  EXPECT_NE(host_bound["level6/2_Host_Bound_Loop_Train"].find("queueing a call takes"), std::string::npos) << r.out;
  EXPECT_NE(host_bound["level6/3_Host_Sync_Train"].find("waits for the GPU while it is being queued"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace kforge::testing
