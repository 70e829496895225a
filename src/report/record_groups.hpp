#pragma once
// How the reporters group a run's records: per level (then "all"), per problem, and the fast_p
// outcome of each record. One grouping feeds the console table, the JSON and the HTML page, so
// they never disagree on what a level holds.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/evaluation.hpp"
#include "metrics/fast_p.hpp"

namespace kforge::report {

using RecordGroup = std::vector<const EvaluationRecord*>;

metrics::Outcome outcome_of(const EvaluationRecord& r);
std::vector<metrics::Outcome> outcomes(const RecordGroup& records);

// The records per level, in level order ("other" for a file outside any level), then "all": where
// there is more than one level, or always with `all_always`.
std::vector<std::pair<std::string, RecordGroup>> level_groups(const std::vector<EvaluationRecord>& records,
                                                              bool all_always);

// How a group's candidates ended: each verdict's count, and what upstream reports beside fast_p:
// how many built (no compile_error), were correct, and were faster than the reference (correct
// and above 1.0x).
struct VerdictTally {
  std::map<Verdict, size_t> counts;
  size_t total = 0, built = 0, correct = 0, faster = 0;
  double share(size_t count) const { return total ? double(count) / double(total) : 0.0; }
};
VerdictTally tally_verdicts(const RecordGroup& records);

// A group's outcomes per problem (a problem's samples are the candidates evaluated for it), in
// problem-name order.
std::vector<std::vector<metrics::Outcome>> outcomes_by_problem(const RecordGroup& records);

}  // namespace kforge::report
