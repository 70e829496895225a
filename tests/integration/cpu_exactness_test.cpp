// A candidate more exact than its reference (docs/evaluation.md, "more exact than the reference"):
// the reference rounds its operands to TF32 as cuDNN's convolutions do on a GPU, and a plain fp32
// candidate differs from it past fp32's tolerance while the fp64 check finds it the more exact.
// It is correct; one less exact than the reference is not; and one exact in its trials that
// replays an old result once timed is caught by the timing's recheck, which holds it to the
// reference by norm.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/files.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

std::string linear_candidate(const std::string& forward_body, const std::string& extra = "") {
  return R"(import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)
)" + extra + R"(
    def forward(self, x):
)" + forward_body;
}

TEST(CpuExactness, ACandidateMoreExactThanItsReferenceIsCorrectAndHeldByNorm) {
  TempDir dir;
  const std::string problem = source_path("tests/problems/precision/level1/1_TF32_Rounded_Linear.py");
  std::string exact = dir.write("exact.py", linear_candidate("        return F.linear(x, self.linear.weight, self.linear.bias)\n"));
  std::string bf16 = dir.write(
      "bf16_compute.py",
      linear_candidate("        return F.linear(x.bfloat16(), self.linear.weight.bfloat16(), self.linear.bias.bfloat16()).float()\n"));
  // Exact in its trials (five and one at the extra size), then the first result it computed at
  // the benchmark size for every later call.
  std::string replay = dir.write("exact_then_replays.py",
                                 linear_candidate(R"(        self.calls += 1
        if self.calls > 6 and self.kept is not None and self.kept.shape[0] == x.shape[0]:
            return self.kept.clone()
        out = F.linear(x, self.linear.weight, self.linear.bias)
        if self.kept is None:
            self.kept = out.clone()
        return out
)",
                                                  "        self.calls = 0\n        self.kept = None\n"));
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--timeout", "120", "--max-time", "0.5",
                       "--min-time", "0", "--min-samples", "5", "--json", "--problem", problem, exact, bf16, replay});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  EXPECT_EQ(got["exact.py"].value("verdict", ""), "correct") << got["exact.py"].dump();
  EXPECT_NE(got["exact.py"].value("message", "").find("more exact than the reference"), std::string::npos)
      << got["exact.py"].dump();
  EXPECT_EQ(got["bf16_compute.py"].value("verdict", ""), "incorrect") << got["bf16_compute.py"].dump();
  EXPECT_NE(got["bf16_compute.py"].value("message", "").find("norm error vs fp64"), std::string::npos)
      << got["bf16_compute.py"].dump();
  EXPECT_EQ(got["exact_then_replays.py"].value("verdict", ""), "rejected") << got["exact_then_replays.py"].dump();
  EXPECT_NE(got["exact_then_replays.py"].value("message", "").find("after it passed the correctness trials"), std::string::npos)
      << got["exact_then_replays.py"].dump();
}

// The reference itself (ModelNew = Model) needs nothing of this: it matches its reference exactly.
TEST(CpuExactness, TheIdentityIsCorrectWithoutTheNote) {
  TempDir dir;
  const std::string problem = source_path("tests/problems/precision/level1/1_TF32_Rounded_Linear.py");
  std::string identity = dir.write("identity.py", read_file(problem) + "\n\nModelNew = Model\n");
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--timeout", "120", "--max-time", "0.3",
                       "--min-time", "0", "--min-samples", "5", "--json", "--problem", problem, identity});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  EXPECT_EQ(got["identity.py"].value("verdict", ""), "correct") << got["identity.py"].dump();
  EXPECT_EQ(got["identity.py"].value("message", "").find("more exact"), std::string::npos) << got["identity.py"].dump();
}

}  // namespace
}  // namespace kforge::testing
