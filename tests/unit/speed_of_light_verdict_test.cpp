// The executor's record for a correct candidate timed below a speed-of-light floor: rejected,
// rule speed-of-light, the bound named; above it, correct with the share of the floor reached.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "planner/executor.hpp"

namespace kforge {
namespace {

protocol::WorkerInfo h200_like() {
  protocol::WorkerInfo w;
  w.device_kind = "cuda";
  w.device_name = "NVIDIA H200";
  w.sm_count = 132;
  w.max_sm_mhz = 1980;
  w.copy_bytes_per_s = 4.1e12;
  return w;
}

JobOutcome correct_outcome(double ref_ms, double cand_ms, int64_t flops, int64_t bytes) {
  JobOutcome o;
  o.result.verdict = Verdict::correct;
  o.result.message = "5/5 trials passed";
  o.result.ref_ms = std::vector<double>(30, ref_ms);
  o.result.cand_ms = std::vector<double>(30, cand_ms);
  o.result.ref_host_ms = o.result.ref_ms;
  o.result.cand_host_ms = o.result.cand_ms;
  o.result.flops = flops;
  o.result.min_bytes = bytes;
  return o;
}

EvaluationRecord record_of(const JobOutcome& o) {
  PlannedEval e;
  e.problem_name = "level3/9_ResNet18";
  return make_record(e, "key", nlohmann::json::object(), h200_like(), "cuda:0", o, 1.0);
}

// 2 TFLOP in few bytes: the compute floor (2e12 / 8 / 4.28e15 = 0.058 ms) is the larger.
TEST(SpeedOfLightVerdict, BelowTheComputeFloorIsRejected) {
  auto r = record_of(correct_outcome(12.0, 0.01, 2'000'000'000'000, 10'000'000));
  EXPECT_EQ(r.verdict, Verdict::rejected);
  EXPECT_EQ(r.rule, "speed-of-light");
  EXPECT_NE(r.message.find("compute speed of light"), std::string::npos) << r.message;
  EXPECT_FALSE(r.speedup);
}

TEST(SpeedOfLightVerdict, BelowTheMemoryFloorIsRejected) {
  // 4.8 GB and no FLOPs: the memory floor, 4.8e9 / (1.25 x 4.1e12) = 0.94 ms.
  auto r = record_of(correct_outcome(2.0, 0.5, 0, 4'800'000'000));
  EXPECT_EQ(r.verdict, Verdict::rejected);
  EXPECT_EQ(r.rule, "speed-of-light");
  EXPECT_NE(r.message.find("memory speed of light"), std::string::npos) << r.message;
}

TEST(SpeedOfLightVerdict, AboveBothFloorsIsTimed) {
  auto r = record_of(correct_outcome(12.0, 6.0, 2'000'000'000'000, 10'000'000));
  EXPECT_EQ(r.verdict, Verdict::correct);
  ASSERT_TRUE(r.speedup);
  EXPECT_NEAR(*r.speedup, 2.0, 1e-9);
  EXPECT_NE(r.message.find("compute speed of light 0.05"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace kforge
