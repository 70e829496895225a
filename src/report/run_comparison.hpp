#pragma once
// Two runs side by side (kforge compare): per problem, each run's best candidate, whether its
// verdict changed, and how much faster the second run's is than the first's.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evaluation.hpp"

namespace kforge::report {

struct ProblemComparison {
  std::string problem;  // the problem's name as the runs saw it
  // Each run's best candidate of the problem (the fastest correct one, else its first record);
  // none when the run did not have the problem.
  std::optional<EvaluationRecord> before, after;
  // after's speedup over before's, when both are correct and timed; its interval is the widest
  // the two speedups' 95% intervals allow (after.low / before.high, after.high / before.low).
  std::optional<double> ratio;
  std::optional<stats::Interval> ratio_ci;
  // "faster" / "slower" (the interval excludes 1), "same" (it holds 1, or no intervals and
  // within 1%), "fixed" (now correct), "broke" (no longer correct), "still failing", "only before", "only after".
  std::string change;
};

struct RunComparison {
  std::vector<ProblemComparison> problems;  // sorted by problem name
  int faster = 0, slower = 0, same = 0, fixed = 0, broke = 0;
  // The geometric mean of `ratio` over the problems where both are correct and timed.
  std::optional<double> geomean_ratio;
  int ratios = 0;
};

RunComparison compare_runs(const std::vector<EvaluationRecord>& before, const std::vector<EvaluationRecord>& after);

void print_comparison(std::ostream& out, const RunComparison& c, const std::string& before_label, const std::string& after_label);
nlohmann::json comparison_json(const RunComparison& c);

}  // namespace kforge::report
