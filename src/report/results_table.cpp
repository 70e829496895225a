#include "report/results_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "metrics/fast_p.hpp"
#include "report/formatting.hpp"
#include "report/record_groups.hpp"

namespace kforge::report {
namespace {

struct Column {
  std::string header;
  bool right_aligned = false;
  size_t narrowest = 0;  // 0: never cut; else a table too wide for `max_width` cuts it down to this
};

// Columns as wide as their widest cell; where the whole is wider than `max_width` (0: no limit),
// the cuttable columns give way, the last one first, each down to its narrowest, their cells cut
// with an ellipsis.
void print_table(std::ostream& out, const std::vector<Column>& columns, std::vector<std::vector<std::string>> rows,
                 size_t max_width) {
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    width[c] = columns[c].header.size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  if (max_width > 0) {
    size_t total = 2 * (columns.size() - 1);
    for (size_t w : width) total += w;
    for (size_t c = columns.size(); c-- > 0 && total > max_width;) {
      if (columns[c].narrowest == 0 || width[c] <= columns[c].narrowest) continue;
      const size_t give = std::min(total - max_width, width[c] - columns[c].narrowest);
      width[c] -= give;
      total -= give;
      for (auto& row : rows) row[c] = one_line(row[c], width[c]);
    }
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t c = 0; c < cells.size(); ++c) {
      bool last = c + 1 == cells.size();
      if (columns[c].right_aligned) text += fmt::format("{:>{}}", cells[c], width[c]);
      else text += last ? cells[c] : fmt::format("{:<{}}", cells[c], width[c]);
      if (!last) text += "  ";
    }
    out << text << '\n';
  };
  std::vector<std::string> headers;
  for (const auto& c : columns) headers.push_back(one_line(c.header, width[&c - columns.data()]));
  line(headers);
  std::vector<std::string> rule;
  for (size_t c = 0; c < columns.size(); ++c) rule.push_back(std::string(width[c], '-'));
  line(rule);
  for (const auto& row : rows) line(row);
}

// How many of a group's candidates ended in each verdict, and the built, correct and faster shares.
nlohmann::json verdicts_json(const RecordGroup& records) {
  const VerdictTally t = tally_verdicts(records);
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [verdict, count] : t.counts) counts[std::string(to_string(verdict))] = count;
  return {{"counts", counts},
          {"compiled", t.share(t.built)},
          {"correct", t.share(t.correct)},
          {"faster", t.share(t.faster)}};
}

// The fewest samples any problem of the group has: the k of best-of-k.
size_t fewest_samples(const std::vector<std::vector<metrics::Outcome>>& problems) {
  size_t k = 0;
  for (const auto& s : problems) k = k == 0 ? s.size() : std::min(k, s.size());
  return k;
}

}  // namespace

void print_results_table(std::ostream& out, const std::vector<EvaluationRecord>& records, size_t max_width) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : records) {
    std::string verdict(to_string(r.verdict));
    if (!r.rule.empty()) verdict += " (" + r.rule + ")";
    std::string message = r.reused ? "[stored] " + r.message : r.message;
    rows.push_back({escaped(r.problem_name), escaped(r.candidate_name), verdict, format_ms(r.ref_ms), format_ms(r.cand_ms),
                    format_speedup(r.speedup, r.speedup_ci) +
                        (r.speedup_ci && r.cand_samples_ms.size() < kFewPairs
                             ? fmt::format(" (only {} pairs)", r.cand_samples_ms.size())
                             : std::string()), format_error(r.max_abs_error), one_line(message, message.size())});
  }
  print_table(out,
              {{"problem", false, 16}, {"candidate", false, 16}, {"verdict"}, {"ref ms", true}, {"cand ms", true},
               {"speedup [95% CI]", true}, {"max abs err", true}, {"message", false, 20}},
              std::move(rows), max_width);
}

nlohmann::json evaluation_json(const EvaluationRecord& r) {
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json ci = nullptr;
  if (r.speedup_ci) ci = {r.speedup_ci->low, r.speedup_ci->high};
  return {{"schema", kJsonSchema},
          {"problem", r.problem_name},
          {"level", r.level},
          {"problem_id", r.problem_id},
          {"candidate", r.candidate_name},
          {"verdict", to_string(r.verdict)},
          {"rule", r.rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.rule)},
          {"message", r.message},
          {"trials", {{"passed", r.trials_passed}, {"total", r.trials_total}}},
          {"max_abs_error", opt(r.max_abs_error)},
          {"max_rel_error", opt(r.max_rel_error)},
          {"ref_ms", opt(r.ref_ms)},
          {"cand_ms", opt(r.cand_ms)},
          {"speedup", opt(r.speedup)},
          {"speedup_ci", ci},
          {"samples", r.cand_samples_ms.size()},
          {"few_pairs", r.speedup_ci.has_value() && r.cand_samples_ms.size() < kFewPairs},
          {"device", r.device},
          {"device_name", r.device_name},
          {"reused", r.reused},
          {"evaluation_id", r.id},
          {"wall_s", r.wall_s},
          {"phases_s", {{"load", r.load_s}, {"correctness", r.correctness_s}, {"timing", r.timing_s}}}};
}

void print_fast_p_table(std::ostream& out, const std::vector<EvaluationRecord>& records) {
  const auto groups = level_groups(records, false);
  std::vector<Column> columns{{"level"}, {"n", true}};
  for (double p : metrics::kFastPThresholds) columns.push_back({fmt::format("fast_{:g}", p), true});
  columns.push_back({"geomean speedup", true});
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, group] : groups) {
    auto o = outcomes(group);
    std::vector<std::string> cells{name, std::to_string(group.size())};
    for (double p : metrics::kFastPThresholds) cells.push_back(fmt::format("{:.1f}%", 100 * metrics::fast_p(o, p)));
    auto g = metrics::geometric_mean_speedup(o);
    cells.push_back(g ? fmt::format("{:.3f}x", *g) : "-");
    rows.push_back(std::move(cells));
  }
  print_table(out, columns, rows, 0);
  // With several samples a problem: the best of k, by the unbiased estimator (fast_p@k).
  for (const auto& [name, group] : groups) {
    const auto problems = outcomes_by_problem(group);
    const size_t k = fewest_samples(problems);
    if (k < 2) continue;
    std::string line = fmt::format("{}: {} problems, best of {} samples:", name, problems.size(), k);
    for (double p : {0.0, 1.0, 1.5, 2.0})
      line += fmt::format(" fast_{:g}@{} {:.1f}%", p, k, 100 * metrics::fast_p_at_k(problems, static_cast<int>(k), p).value_or(0));
    out << line << "\n";
  }
  // The verdicts behind the figures: built, correct and faster shares, and every verdict's count.
  for (const auto& [name, group] : groups) {
    const nlohmann::json v = verdicts_json(group);
    std::string line = fmt::format("{}: built {:.0f}%, correct {:.0f}%, faster {:.0f}%;", name,
                                   100 * v["compiled"].get<double>(), 100 * v["correct"].get<double>(),
                                   100 * v["faster"].get<double>());
    for (const auto& [verdict, count] : v["counts"].items()) line += fmt::format(" {} {}", verdict, count.get<int>());
    out << line << "\n";
  }
}

nlohmann::json fast_p_json(const std::vector<EvaluationRecord>& records) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, group] : level_groups(records, true)) {
    auto o = outcomes(group);
    nlohmann::json g = {{"n", group.size()}};
    for (double p : metrics::kFastPThresholds) g[fmt::format("fast_{:g}", p)] = metrics::fast_p(o, p);
    auto gm = metrics::geometric_mean_speedup(o);
    g["geomean_speedup"] = gm ? nlohmann::json(*gm) : nlohmann::json(nullptr);
    const auto problems = outcomes_by_problem(group);
    const size_t k = fewest_samples(problems);
    g["problems"] = problems.size();
    g["verdicts"] = verdicts_json(group);
    if (k >= 2) {
      nlohmann::json at_k = {{"k", k}};
      for (double p : metrics::kFastPThresholds)
        at_k[fmt::format("fast_{:g}", p)] = metrics::fast_p_at_k(problems, static_cast<int>(k), p).value_or(0);
      g["best_of_k"] = at_k;
    }
    out[name] = g;
  }
  return out;
}

}  // namespace kforge::report
