#include <gtest/gtest.h>

#include <sstream>

#include "report/formatting.hpp"
#include "report/kernelbench_export.hpp"
#include "report/results_table.hpp"

namespace kforge::report {
namespace {

EvaluationRecord record(int problem_id, const std::string& candidate, Verdict v, std::optional<double> speedup) {
  EvaluationRecord r;
  r.problem_name = "level1/" + std::to_string(problem_id) + "_X";
  r.candidate_name = candidate;
  r.level = 1;
  r.problem_id = problem_id;
  r.device = "cuda:0";
  r.device_name = "NVIDIA H200";
  r.verdict = v;
  r.speedup = speedup;
  r.trials_passed = v == Verdict::correct ? 5 : 2;
  r.trials_total = 5;
  if (speedup) {
    r.ref_ms = 2.0;
    r.cand_ms = 2.0 / *speedup;
    r.cand_samples_ms = {*r.cand_ms, *r.cand_ms * 1.1, *r.cand_ms * 0.9};
    r.speedup_ci = stats::Interval{*speedup * 0.99, *speedup * 1.01};
  }
  r.message = v == Verdict::correct ? "ok" : "something failed";
  return r;
}

TEST(Formatting, Numbers) {
  EXPECT_EQ(format_ms(std::nullopt), "-");
  EXPECT_EQ(format_ms(0.01234), "0.0123");
  EXPECT_EQ(format_ms(12.3456), "12.346");
  EXPECT_EQ(format_speedup(1.5, stats::Interval{1.4, 1.6}), "1.500x [1.400, 1.600]");
  EXPECT_EQ(one_line("a\nb", 10), "a b");
  EXPECT_EQ(one_line("abcdefghijkl", 8), "abcde...");
}

TEST(KernelBenchExport, UpstreamShape) {
  std::vector<EvaluationRecord> records{
      record(19, "level1/19_X/a.py", Verdict::correct, 1.25),
      record(19, "level_1_problem_19_sample_7_kernel.py", Verdict::compile_error, std::nullopt),
      record(23, "level1/23_X/b.py", Verdict::incorrect, std::nullopt),
  };
  auto j = kernelbench_eval_results(records);
  ASSERT_TRUE(j.contains("19"));
  ASSERT_EQ(j["19"].size(), 2u);
  const auto& ok = j["19"][0];
  EXPECT_EQ(ok["sample_id"], 0);
  EXPECT_EQ(ok["compiled"], true);
  EXPECT_EQ(ok["correctness"], true);
  EXPECT_DOUBLE_EQ(ok["runtime"].get<double>(), 1.6);
  EXPECT_DOUBLE_EQ(ok["ref_runtime"].get<double>(), 2.0);
  EXPECT_EQ(ok["runtime_stats"]["num_trials"], 3);
  EXPECT_EQ(ok["metadata"]["hardware"], "NVIDIA H200");
  EXPECT_EQ(ok["metadata"]["correctness_trials"], "(5 / 5)");
  const auto& failed = j["19"][1];
  EXPECT_EQ(failed["sample_id"], 7);
  EXPECT_EQ(failed["compiled"], false);
  EXPECT_EQ(failed["runtime"], -1.0);
  EXPECT_TRUE(failed["metadata"].contains("compilation_error"));
  EXPECT_EQ(j["23"][0]["correctness"], false);
  EXPECT_EQ(j["23"][0]["compiled"], true);
}

TEST(ResultsTable, ShowsEveryRecordAndVerdict) {
  std::vector<EvaluationRecord> records{record(1, "fast.py", Verdict::correct, 2.0),
                                        record(2, "broken.py", Verdict::runtime_error, std::nullopt)};
  records[1].rule = "";
  std::ostringstream out;
  print_results_table(out, records);
  std::string text = out.str();
  EXPECT_NE(text.find("fast.py"), std::string::npos);
  EXPECT_NE(text.find("2.000x [1.980, 2.020]"), std::string::npos) << text;
  EXPECT_NE(text.find("runtime_error"), std::string::npos);
  EXPECT_NE(text.find("something failed"), std::string::npos);
}

TEST(EvaluationJson, HasTheContractFields) {
  auto j = evaluation_json(record(1, "fast.py", Verdict::correct, 2.0));
  for (const char* key : {"problem", "candidate", "verdict", "message", "max_abs_error", "ref_ms", "cand_ms",
                          "speedup", "speedup_ci"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["verdict"], "correct");
  EXPECT_EQ(j["speedup_ci"].size(), 2u);
  auto failed = evaluation_json(record(1, "x.py", Verdict::timeout, std::nullopt));
  EXPECT_TRUE(failed["speedup"].is_null());
  EXPECT_TRUE(failed["speedup_ci"].is_null());
}

// A file name is anyone's choice: newlines and escape codes in it are shown, never acted on by the
// terminal; messages lose their control characters.
TEST(ResultsTable, NamesAndMessagesCannotDriveTheTerminal) {
  EXPECT_EQ(escaped("a\nb\tc\x1b[31mred\x7f"), "a\\nb\\tc\\x1b[31mred\\x7f");
  EXPECT_EQ(escaped("plain_name.py"), "plain_name.py");
  EvaluationRecord r = record(1, "evil\n\x1b[2J.py", Verdict::incorrect, std::nullopt);
  r.message = "diff\x1b[31m at [0]\nnext";
  std::ostringstream out;
  print_results_table(out, {r});
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("evil\\n\\x1b[2J.py"), std::string::npos) << out.str();
}

// An interval from a handful of timed pairs is marked, in the table and in JSON.
TEST(ResultsTable, FitsTheWidthGivenAndIsWholeWithoutOne) {
  EvaluationRecord r = record(1, std::string(70, 'c') + ".py", Verdict::incorrect, std::nullopt);
  r.problem_name = "level1/" + std::string(60, 'p');
  r.message = "trial 1/5: " + std::string(200, 'm') + " END";
  std::ostringstream narrow, whole;
  print_results_table(narrow, {r}, 120);
  print_results_table(whole, {r}, 0);
  std::istringstream lines(narrow.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
  EXPECT_NE(narrow.str().find("..."), std::string::npos) << narrow.str();
  EXPECT_EQ(narrow.str().find(" END"), std::string::npos) << narrow.str();
  EXPECT_NE(whole.str().find(" END"), std::string::npos) << whole.str();
  EXPECT_NE(whole.str().find(std::string(70, 'c') + ".py"), std::string::npos) << whole.str();
}

TEST(ResultsTable, AnIntervalFromFewPairsIsMarked) {
  EvaluationRecord r = record(1, "quick.py", Verdict::correct, 1.5);  // 3 timed pairs
  std::ostringstream out;
  print_results_table(out, {r});
  EXPECT_NE(out.str().find("(only 3 pairs)"), std::string::npos) << out.str();
  EXPECT_TRUE(evaluation_json(r)["few_pairs"].get<bool>());
  r.cand_samples_ms.assign(40, 1.0);
  std::ostringstream many;
  print_results_table(many, {r});
  EXPECT_EQ(many.str().find("pairs)"), std::string::npos) << many.str();
  EXPECT_FALSE(evaluation_json(r)["few_pairs"].get<bool>());
}

TEST(FastPTable, PerLevelAndOverall) {
  std::vector<EvaluationRecord> records{record(1, "a.py", Verdict::correct, 2.0),
                                        record(2, "b.py", Verdict::incorrect, std::nullopt)};
  records.push_back(record(3, "c.py", Verdict::correct, 1.2));
  records.back().level = 2;
  auto j = fast_p_json(records);
  EXPECT_DOUBLE_EQ(j["level1"]["fast_0"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["level1"]["fast_1.5"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["level2"]["fast_1.5"].get<double>(), 0.0);
  EXPECT_EQ(j["all"]["n"], 3);
  EXPECT_NEAR(j["all"]["geomean_speedup"].get<double>(), std::sqrt(2.4), 1e-12);
  std::ostringstream out;
  print_fast_p_table(out, records);
  EXPECT_NE(out.str().find("fast_1.5"), std::string::npos);
  EXPECT_NE(out.str().find("level2"), std::string::npos);
  EXPECT_NE(out.str().find("all"), std::string::npos);
  EXPECT_EQ(out.str().find("best of"), std::string::npos) << "one sample a problem: no best-of-k line";
  // The verdicts behind the figures, per level.
  EXPECT_EQ(j["level1"]["verdicts"]["counts"]["correct"], 1);
  EXPECT_EQ(j["level1"]["verdicts"]["counts"]["incorrect"], 1);
  EXPECT_DOUBLE_EQ(j["level1"]["verdicts"]["compiled"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["level1"]["verdicts"]["faster"].get<double>(), 0.5);
  EXPECT_NE(out.str().find("level1: built 100%, correct 50%, faster 50%; correct 1 incorrect 1"), std::string::npos)
      << out.str();
}

// With several samples a problem (generate --samples k), the best of k per problem by the
// unbiased estimator, beside fast_p over every sample.
TEST(FastPTable, BestOfKWithSeveralSamplesAProblem) {
  std::vector<EvaluationRecord> records{record(1, "s0.py", Verdict::correct, 2.0), record(1, "s1.py", Verdict::incorrect, std::nullopt),
                                        record(2, "s0.py", Verdict::correct, 0.5), record(2, "s1.py", Verdict::compile_error, std::nullopt)};
  auto j = fast_p_json(records);
  EXPECT_EQ(j["level1"]["problems"], 2);
  EXPECT_DOUBLE_EQ(j["level1"]["fast_0"].get<double>(), 0.5);                 // 2 of 4 samples correct
  EXPECT_EQ(j["level1"]["best_of_k"]["k"], 2);
  EXPECT_DOUBLE_EQ(j["level1"]["best_of_k"]["fast_0"].get<double>(), 1.0);  // each problem has a correct sample
  EXPECT_DOUBLE_EQ(j["level1"]["best_of_k"]["fast_1"].get<double>(), 0.5);  // only problem 1 has a faster one
  std::ostringstream out;
  print_fast_p_table(out, records);
  EXPECT_NE(out.str().find("level1: 2 problems, best of 2 samples: fast_0@2 100.0% fast_1@2 50.0%"), std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace kforge::report
