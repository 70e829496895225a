#pragma once
// The console reporters of `kforge eval` and `kforge report`, fed by the one result model.
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evaluation.hpp"

namespace kforge::report {

// One row per evaluation: problem, candidate, verdict, ref/cand medians, speedup with its CI,
// max abs error, message. Within `max_width` columns (0: every cell whole), the message, then
// the candidate's and the problem's names cut with an ellipsis.
void print_results_table(std::ostream& out, const std::vector<EvaluationRecord>& records, size_t max_width = 0);

// The --json line of one evaluation (docs/cli.md lists the fields).
// The version of evaluation_json's shape, in every object as "schema": raised when a field
// changes meaning or type, so a script can tell which it reads. 2: "trials" became
// {"passed", "total"} numbers (it was the string "5/5") and "schema" was added.
inline constexpr int kJsonSchema = 2;

// Fewer timed pairs than this make a bootstrap interval too coarse to trust (a handful of
// resampled blocks): the table marks such an interval, and JSON says "few_pairs".
inline constexpr size_t kFewPairs = 10;
nlohmann::json evaluation_json(const EvaluationRecord& r);

// fast_p at upstream's thresholds and the geometric-mean speedup, per level and over all.
void print_fast_p_table(std::ostream& out, const std::vector<EvaluationRecord>& records);
nlohmann::json fast_p_json(const std::vector<EvaluationRecord>& records);

}  // namespace kforge::report
