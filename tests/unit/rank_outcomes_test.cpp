// How a multi-rank job's outcome is made from its ranks' (pool/rank_job.hpp, merge_rank_outcomes):
// the rank that failed of its own is named, not the ranks its failure broke.
#include "pool/rank_job.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kforge {
namespace {

JobOutcome verdict(Verdict v, const std::string& message, bool another_ranks = false) {
  JobOutcome o;
  o.result.verdict = v;
  o.result.message = message;
  o.result.another_ranks_failure = another_ranks;
  return o;
}

JobOutcome worker_failure(JobFailure f, const std::string& detail) {
  JobOutcome o;
  o.failure = f;
  o.detail = detail;
  return o;
}

TEST(RankOutcomes, EveryRankCorrectGivesRankZerosTimesAndSaysHowTheyWereTaken) {
  JobOutcome zero = verdict(Verdict::correct, "5/5 trials passed");
  zero.result.ref_ms = {1.0, 2.0};
  auto merged = merge_rank_outcomes({zero, verdict(Verdict::correct, "5/5 trials passed")});
  EXPECT_EQ(merged.result.verdict, Verdict::correct);
  EXPECT_EQ(merged.result.ref_ms, zero.result.ref_ms);
  EXPECT_EQ(merged.result.message, "2 ranks, each pair timed as its slowest rank's; 5/5 trials passed");
}

TEST(RankOutcomes, TheRankThatFailedOfItsOwnIsNamedNotTheOnesItStopped) {
  auto merged = merge_rank_outcomes({verdict(Verdict::runtime_error, "rank 0: another rank failed", true),
                                     verdict(Verdict::incorrect, "rank 1: trial 1/5: output differs")});
  EXPECT_EQ(merged.result.verdict, Verdict::incorrect);
  EXPECT_EQ(merged.result.message, "rank 1: trial 1/5: output differs");
  EXPECT_FALSE(merged.result.another_ranks_failure);
}

TEST(RankOutcomes, ACollectiveBrokenByAnotherRankIsAnEcho) {
  auto merged = merge_rank_outcomes(
      {verdict(Verdict::runtime_error, "rank 0: ModelNew.forward raised: Connection closed by peer [127.0.0.1]:4242"),
       worker_failure(JobFailure::crashed, "killed by signal 6 (Aborted)")});
  EXPECT_EQ(merged.failure, JobFailure::crashed);
  EXPECT_EQ(merged.detail, "rank 1: killed by signal 6 (Aborted)");
}

TEST(RankOutcomes, OnlyEchoesLeaveTheFirst) {
  auto merged = merge_rank_outcomes({verdict(Verdict::runtime_error, "rank 0: Timed out waiting 60000ms"),
                                     verdict(Verdict::runtime_error, "rank 1: Connection reset by peer")});
  EXPECT_EQ(merged.result.message, "rank 0: Timed out waiting 60000ms");
}

TEST(RankOutcomes, RanksAllOutOfTimeAreAllNamed) {
  auto merged = merge_rank_outcomes({worker_failure(JobFailure::timeout, "no result within 20 s; the worker was killed"),
                                     worker_failure(JobFailure::timeout, "no result within 20 s; the worker was killed")});
  EXPECT_EQ(merged.failure, JobFailure::timeout);
  EXPECT_EQ(merged.detail.rfind("ranks 0, 1 ran out of time", 0), 0u) << merged.detail;
  auto one = merge_rank_outcomes({verdict(Verdict::runtime_error, "rank 0: another rank failed", true),
                                  worker_failure(JobFailure::timeout, "no result within 20 s")});
  EXPECT_EQ(one.detail, "rank 1: no result within 20 s");
}

}  // namespace
}  // namespace kforge
