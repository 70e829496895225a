#include <gtest/gtest.h>

#include <sstream>

#include "report/run_comparison.hpp"

namespace kforge::report {
namespace {

EvaluationRecord record(int problem_id, Verdict v, std::optional<double> speedup, double ci_share = 0.01) {
  EvaluationRecord r;
  r.problem_name = "level1/" + std::to_string(problem_id) + "_X";
  r.candidate_name = "c.py";
  r.level = 1;
  r.problem_id = problem_id;
  r.verdict = v;
  r.speedup = speedup;
  if (speedup) r.speedup_ci = stats::Interval{*speedup * (1 - ci_share), *speedup * (1 + ci_share)};
  return r;
}

const ProblemComparison& row(const RunComparison& c, int problem_id) {
  for (const auto& p : c.problems)
    if (p.problem == "level1/" + std::to_string(problem_id) + "_X") return p;
  throw std::runtime_error("no such row");
}

TEST(RunComparison, ClassifiesEachProblemAndTakesEachRunsBest) {
  std::vector<EvaluationRecord> before{
      record(1, Verdict::correct, 1.0),
      record(2, Verdict::correct, 2.0),
      record(3, Verdict::incorrect, std::nullopt),
      record(4, Verdict::correct, 1.5),
      record(5, Verdict::correct, 1.0, 0.2),  // a wide interval
      record(6, Verdict::compile_error, std::nullopt),
  };
  std::vector<EvaluationRecord> after{
      record(1, Verdict::correct, 1.5), record(1, Verdict::incorrect, std::nullopt),  // best of two: 1.5x
      record(2, Verdict::correct, 1.0),
      record(3, Verdict::correct, 1.2),
      record(4, Verdict::timeout, std::nullopt),
      record(5, Verdict::correct, 1.1, 0.2),
      record(7, Verdict::correct, 3.0),
  };
  const auto c = compare_runs(before, after);
  ASSERT_EQ(c.problems.size(), 7u);
  EXPECT_EQ(row(c, 1).change, "faster");
  EXPECT_NEAR(*row(c, 1).ratio, 1.5, 1e-12);
  // The interval is the widest both speedups' intervals allow.
  EXPECT_NEAR(row(c, 1).ratio_ci->low, 1.5 * 0.99 / 1.01, 1e-12);
  EXPECT_NEAR(row(c, 1).ratio_ci->high, 1.5 * 1.01 / 0.99, 1e-12);
  EXPECT_EQ(row(c, 2).change, "slower");
  EXPECT_EQ(row(c, 3).change, "fixed");
  EXPECT_EQ(row(c, 4).change, "broke");
  EXPECT_EQ(row(c, 5).change, "same");  // 1.1x, but the interval holds 1
  EXPECT_EQ(row(c, 6).change, "only before");
  EXPECT_EQ(row(c, 7).change, "only after");
  EXPECT_EQ(c.faster, 1);
  EXPECT_EQ(c.slower, 1);
  EXPECT_EQ(c.same, 1);
  EXPECT_EQ(c.fixed, 1);
  EXPECT_EQ(c.broke, 1);
  ASSERT_EQ(c.ratios, 3);  // problems 1, 2 and 5: correct and timed in both
  EXPECT_NEAR(*c.geomean_ratio, std::cbrt(1.5 * 0.5 * 1.1), 1e-12);

  std::ostringstream out;
  print_comparison(out, c, "a", "b");
  EXPECT_NE(out.str().find("7 problem(s): 1 faster, 1 slower, 1 the same, 1 fixed, 1 broke"), std::string::npos) << out.str();
  const auto j = comparison_json(c);
  EXPECT_EQ(j["problems"].size(), 7u);
  EXPECT_EQ(j["fixed"], 1);
  EXPECT_TRUE(j["problems"][5]["after"].is_null()) << j.dump(2);  // only before
}

TEST(RunComparison, NothingInCommonGivesNoRatio) {
  const auto c = compare_runs({record(1, Verdict::correct, 1.0)}, {record(2, Verdict::correct, 1.0)});
  EXPECT_FALSE(c.geomean_ratio);
  EXPECT_EQ(c.ratios, 0);
}

}  // namespace
}  // namespace kforge::report
