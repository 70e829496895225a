#include "report/kernelbench_export.hpp"

#include <cmath>
#include <map>
#include <regex>

#include "metrics/statistics.hpp"

namespace kforge::report {
namespace {

nlohmann::json runtime_stats(const std::vector<double>& samples, const EvaluationRecord& r) {
  if (samples.empty()) return nlohmann::json::object();
  double sum = 0, lo = samples[0], hi = samples[0];
  for (double s : samples) {
    sum += s;
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  double mean = sum / double(samples.size());
  double var = 0;
  for (double s : samples) var += (s - mean) * (s - mean);
  double stdev = samples.size() > 1 ? std::sqrt(var / double(samples.size() - 1)) : 0.0;
  return {{"mean", mean},        {"std", stdev},
          {"min", lo},           {"max", hi},
          {"median", stats::median(samples)},
          {"num_trials", samples.size()},
          {"hardware", r.device_name}, {"device", r.device}};
}

}  // namespace

int sample_id_of(const std::string& candidate_name, int position) {
  static const std::regex generation(R"(_sample_(\d+)_kernel\.py$)");
  std::smatch m;
  if (std::regex_search(candidate_name, m, generation)) return std::stoi(m[1]);
  return position;
}

nlohmann::json kernelbench_eval_results(const std::vector<EvaluationRecord>& records) {
  nlohmann::json out = nlohmann::json::object();
  std::map<int, int> seen_per_problem;
  for (const auto& r : records) {
    int position = seen_per_problem[r.problem_id]++;
    bool compiled = r.verdict != Verdict::compile_error && r.verdict != Verdict::load_error;
    bool correct = r.verdict == Verdict::correct;
    nlohmann::json metadata = {{"hardware", r.device_name},
                               {"device", r.device},
                               {"correctness_trials", "(" + std::to_string(r.trials_passed) + " / " +
                                                          std::to_string(r.trials_total) + ")"},
                               {"kforge_verdict", to_string(r.verdict)},
                               {"kforge_evaluation_id", r.id}};
    if (r.max_abs_error) metadata["max_difference"] = {*r.max_abs_error};
    if (!r.rule.empty()) metadata["kforge_rule"] = r.rule;
    switch (r.verdict) {
      case Verdict::compile_error: metadata["compilation_error"] = r.message; break;
      case Verdict::load_error: metadata["other_error"] = r.message; break;
      case Verdict::runtime_error:
      case Verdict::crashed:
      case Verdict::timeout: metadata["runtime_error"] = r.message; break;
      case Verdict::incorrect:
      case Verdict::rejected: metadata["correctness_issue"] = r.message; break;
      case Verdict::correct: break;
    }
    nlohmann::json sample = {{"sample_id", sample_id_of(r.candidate_name, position)},
                             {"compiled", compiled},
                             {"correctness", correct},
                             {"metadata", metadata},
                             {"runtime", correct && r.cand_ms ? *r.cand_ms : -1.0},
                             {"runtime_stats", correct ? runtime_stats(r.cand_samples_ms, r) : nlohmann::json::object()},
                             {"ref_runtime", correct && r.ref_ms ? *r.ref_ms : -1.0}};
    out[std::to_string(r.problem_id)].push_back(sample);
  }
  return out;
}

}  // namespace kforge::report
