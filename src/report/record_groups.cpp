#include "report/record_groups.hpp"

#include <map>

namespace kforge::report {

metrics::Outcome outcome_of(const EvaluationRecord& r) { return {r.verdict == Verdict::correct, r.speedup}; }

std::vector<metrics::Outcome> outcomes(const RecordGroup& records) {
  std::vector<metrics::Outcome> out;
  out.reserve(records.size());
  for (const auto* r : records) out.push_back(outcome_of(*r));
  return out;
}

std::vector<std::pair<std::string, RecordGroup>> level_groups(const std::vector<EvaluationRecord>& records,
                                                              bool all_always) {
  std::map<int, RecordGroup> by_level;
  RecordGroup all;
  for (const auto& r : records) {
    by_level[r.level].push_back(&r);
    all.push_back(&r);
  }
  std::vector<std::pair<std::string, RecordGroup>> out;
  for (auto& [level, group] : by_level)
    out.emplace_back(level > 0 ? "level" + std::to_string(level) : "other", std::move(group));
  if (all_always || out.size() > 1) out.emplace_back("all", std::move(all));
  return out;
}

VerdictTally tally_verdicts(const RecordGroup& records) {
  VerdictTally t;
  for (const auto* r : records) {
    ++t.counts[r->verdict];
    ++t.total;
    t.built += r->verdict != Verdict::compile_error;
    t.correct += r->verdict == Verdict::correct;
    t.faster += r->verdict == Verdict::correct && r->speedup && *r->speedup > 1.0;
  }
  return t;
}

std::vector<std::vector<metrics::Outcome>> outcomes_by_problem(const RecordGroup& records) {
  std::map<std::string, std::vector<metrics::Outcome>> problems;
  for (const auto* r : records) problems[r->problem_name].push_back(outcome_of(*r));
  std::vector<std::vector<metrics::Outcome>> out;
  for (auto& [name, samples] : problems) out.push_back(std::move(samples));
  return out;
}

}  // namespace kforge::report
