#pragma once
// `kforge export --format kernelbench`: a run's evaluations in the shape of upstream's
// eval_results.json (REFERENCE.md section 3), so numbers can go through upstream's own scripts.
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evaluation.hpp"

namespace kforge::report {

// {"<problem_id>": [{"sample_id", "compiled", "correctness", "metadata", "runtime",
//   "runtime_stats", "ref_runtime"}, ...], ...} for the evaluations of one level. Times in ms;
// runtime is -1.0 where the candidate was not timed, as upstream writes it.
nlohmann::json kernelbench_eval_results(const std::vector<EvaluationRecord>& records);

// The sample id upstream would give the candidate: S of a `..._sample_<S>_kernel.py` name, else
// its position among the run's candidates for the same problem.
int sample_id_of(const std::string& candidate_name, int position);

}  // namespace kforge::report
