#include "report/run_comparison.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "report/formatting.hpp"
#include "report/results_table.hpp"

namespace kforge::report {
namespace {

bool timed_correct(const EvaluationRecord& r) { return r.verdict == Verdict::correct && r.speedup && *r.speedup > 0; }

// The record that stands for a run on one problem: its fastest correct candidate; a correct one
// without a timing; else the first (a failure, as fast_p counts it).
const EvaluationRecord& best_of(const std::vector<const EvaluationRecord*>& records) {
  const EvaluationRecord* best = records.front();
  auto rank = [](const EvaluationRecord& r) { return timed_correct(r) ? 2 : r.verdict == Verdict::correct ? 1 : 0; };
  for (const auto* r : records) {
    if (rank(*r) > rank(*best) || (rank(*r) == 2 && rank(*best) == 2 && *r->speedup > *best->speedup)) best = r;
  }
  return *best;
}

std::map<std::string, std::vector<const EvaluationRecord*>> by_problem(const std::vector<EvaluationRecord>& records) {
  std::map<std::string, std::vector<const EvaluationRecord*>> out;
  for (const auto& r : records) out[r.problem_name].push_back(&r);
  return out;
}

// Within this share of 1 with no intervals to judge by, a ratio is "same".
constexpr double kSameWithoutIntervals = 0.01;

std::string classify(ProblemComparison& p) {
  if (!p.before) return "only after";
  if (!p.after) return "only before";
  const bool was = p.before->verdict == Verdict::correct, is = p.after->verdict == Verdict::correct;
  if (!was && is) return "fixed";
  if (was && !is) return "broke";
  if (!was) return "still failing";
  if (!p.ratio) return "same";  // correct both times, one of them untimed
  if (p.ratio_ci) return p.ratio_ci->low > 1 ? "faster" : p.ratio_ci->high < 1 ? "slower" : "same";
  return std::abs(*p.ratio - 1) <= kSameWithoutIntervals ? "same" : *p.ratio > 1 ? "faster" : "slower";
}

}  // namespace

RunComparison compare_runs(const std::vector<EvaluationRecord>& before, const std::vector<EvaluationRecord>& after) {
  RunComparison c;
  auto a = by_problem(before), b = by_problem(after);
  std::map<std::string, ProblemComparison> rows;
  for (auto& [name, records] : a) rows[name].before = best_of(records);
  for (auto& [name, records] : b) rows[name].after = best_of(records);
  double log_sum = 0;
  for (auto& [name, p] : rows) {
    p.problem = name;
    if (p.before && p.after && timed_correct(*p.before) && timed_correct(*p.after)) {
      p.ratio = *p.after->speedup / *p.before->speedup;
      if (p.before->speedup_ci && p.after->speedup_ci && p.before->speedup_ci->low > 0 && p.before->speedup_ci->high > 0)
        p.ratio_ci = stats::Interval{p.after->speedup_ci->low / p.before->speedup_ci->high,
                                     p.after->speedup_ci->high / p.before->speedup_ci->low};
      log_sum += std::log(*p.ratio);
      ++c.ratios;
    }
    p.change = classify(p);
    if (p.change == "faster") ++c.faster;
    else if (p.change == "slower") ++c.slower;
    else if (p.change == "same") ++c.same;
    else if (p.change == "fixed") ++c.fixed;
    else if (p.change == "broke") ++c.broke;
    c.problems.push_back(std::move(p));
  }
  if (c.ratios > 0) c.geomean_ratio = std::exp(log_sum / c.ratios);
  return c;
}

namespace {

std::string verdict_cell(const std::optional<EvaluationRecord>& r) {
  return r ? std::string(to_string(r->verdict)) : "-";
}

std::string speedup_cell(const std::optional<EvaluationRecord>& r) {
  return r && r->verdict == Verdict::correct ? format_speedup(r->speedup, r->speedup_ci) : "-";
}

}  // namespace

void print_comparison(std::ostream& out, const RunComparison& c, const std::string& before_label, const std::string& after_label) {
  out << fmt::format("{:<36} {:<13} {:<13} {:>24} {:>24} {:>22}  {}\n", "problem", "verdict " + before_label,
                     "verdict " + after_label, "speedup " + before_label, "speedup " + after_label, "ratio [95% CI]", "change");
  for (const auto& p : c.problems) {
    std::string ratio = p.ratio ? fmt::format("{:.3f}x", *p.ratio) : "-";
    if (p.ratio_ci) ratio += fmt::format(" [{:.2f}, {:.2f}]", p.ratio_ci->low, p.ratio_ci->high);
    out << fmt::format("{:<36} {:<13} {:<13} {:>24} {:>24} {:>22}  {}\n", one_line(escaped(p.problem), 36),
                       verdict_cell(p.before), verdict_cell(p.after), speedup_cell(p.before), speedup_cell(p.after), ratio,
                       p.change);
  }
  out << fmt::format("\n{} problem(s): {} faster, {} slower, {} the same, {} fixed, {} broke", c.problems.size(), c.faster,
                     c.slower, c.same, c.fixed, c.broke);
  if (c.geomean_ratio)
    out << fmt::format("; geometric mean of the ratios {:.3f}x over the {} problem(s) correct and timed in both",
                       *c.geomean_ratio, c.ratios);
  out << "\nratio: run " << after_label << "'s best speedup over run " << before_label
      << "'s, per problem; faster or slower only when the interval (from both speedups' 95% intervals) excludes 1\n";
}

nlohmann::json comparison_json(const RunComparison& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& p : c.problems) {
    nlohmann::json j = {{"problem", p.problem}, {"change", p.change}};
    j["before"] = p.before ? evaluation_json(*p.before) : nlohmann::json();
    j["after"] = p.after ? evaluation_json(*p.after) : nlohmann::json();
    j["ratio"] = p.ratio ? nlohmann::json(*p.ratio) : nlohmann::json();
    j["ratio_ci"] = p.ratio_ci ? nlohmann::json::array({p.ratio_ci->low, p.ratio_ci->high}) : nlohmann::json();
    rows.push_back(j);
  }
  return {{"schema", kJsonSchema},
          {"problems", rows},
          {"faster", c.faster},
          {"slower", c.slower},
          {"same", c.same},
          {"fixed", c.fixed},
          {"broke", c.broke},
          {"geomean_ratio", c.geomean_ratio ? nlohmann::json(*c.geomean_ratio) : nlohmann::json()},
          {"ratios", c.ratios}};
}

}  // namespace kforge::report
