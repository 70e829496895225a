#pragma once
// The console reporters of `kforge eval` and `kforge report`, fed by the one result model.
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evaluation.hpp"

namespace kforge::report {

// One row per evaluation: problem, candidate, verdict, ref/cand medians, speedup with its CI,
// max abs error, message.
void print_results_table(std::ostream& out, const std::vector<EvaluationRecord>& records);

// The --json line of one evaluation (docs/cli.md lists the fields).
nlohmann::json evaluation_json(const EvaluationRecord& r);

// fast_p at upstream's thresholds and the geometric-mean speedup, per level and over all.
void print_fast_p_table(std::ostream& out, const std::vector<EvaluationRecord>& records);
nlohmann::json fast_p_json(const std::vector<EvaluationRecord>& records);

}  // namespace kforge::report
