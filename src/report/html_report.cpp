// The upper half of the page (the run, fast_p, the speedups, the verdicts, the models, the
// results table) and the page around it; the per-problem sections are html_problem_sections.cpp's.
#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "metrics/fast_p.hpp"
#include "report/formatting.hpp"
#include "report/html_assets.hpp"
#include "report/html_escape.hpp"
#include "report/html_problem_sections.hpp"
#include "report/record_groups.hpp"
#include "report/results_table.hpp"
#include "report/svg_charts.hpp"

namespace kforge::report {
namespace {

std::string percent(double share) { return fmt::format("{:.1f}%", 100 * share); }

std::string card(const std::string& value, const std::string& label) {
  return fmt::format("<div class=\"card\"><div class=\"value\">{}</div><div class=\"label\">{}</div></div>",
                     html_escaped(value), html_escaped(label));
}

std::string header(const HtmlReportInput& in) {
  const auto& records = in.records;
  std::set<std::string> devices, torches, problems;
  RecordGroup all;
  for (const auto& r : records) {
    all.push_back(&r);
    devices.insert(r.device);
    if (!r.torch_version.empty()) torches.insert(r.torch_version);
    problems.insert(r.problem_name);
  }
  const VerdictTally tally = tally_verdicts(all);
  auto joined = [](const std::set<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ", ") + html_name(s);
    return out.empty() ? std::string("-") : out;
  };
  const auto geomean = metrics::geometric_mean_speedup(outcomes(all));
  std::string out = fmt::format("<header><h1>kforge report: run {}{}</h1>\n<dl class=\"facts\">\n", in.run,
                                in.name.empty() ? std::string() : " (" + html_name(in.name) + ")");
  out += fmt::format("<dt>command</dt><dd><code>{}</code></dd>\n", html_name(in.command));
  out += fmt::format("<dt>device</dt><dd>{} ({})</dd>\n", joined(devices), html_name(records.front().device_name));
  out += fmt::format("<dt>started</dt><dd>{}</dd>\n", html_name(in.started_at));
  out += fmt::format("<dt>torch</dt><dd>{}</dd>\n", joined(torches));
  out += "<dt>speedups</dt><dd>";
  if (in.baseline.empty())
    out += "the reference timed beside each candidate, in the same process on the same inputs (paired)";
  else
    out += fmt::format("against the stored <code>{}</code> baseline of each problem (kforge baseline); intervals "
                       "dropped{}",
                       html_escaped(in.baseline),
                       in.baseline_missing.empty()
                           ? std::string()
                           : fmt::format("; {} correct candidate(s) have no such baseline and count as not fast: {}",
                                         in.baseline_missing.size(), joined({in.baseline_missing.begin(),
                                                                             in.baseline_missing.end()})));
  out += "</dd>\n</dl>\n<div class=\"cards\">";
  out += card(std::to_string(records.size() - in.never_evaluated), "evaluations");
  out += card(std::to_string(in.never_evaluated), "never evaluated");
  out += card(std::to_string(problems.size()), "problems");
  out += card(std::to_string(tally.correct), "correct");
  out += card(std::to_string(tally.faster), "faster than 1.0x");
  out += card(geomean ? fmt::format("{:.3f}x", *geomean) : "-", "geomean speedup (correct)");
  return out + "</div></header>\n";
}

// fast_p over p for each level: upstream's six thresholds are points on these curves.
std::string fast_p_section(const HtmlReportInput& in) {
  const auto groups = level_groups(in.records, false);
  double largest = 0;
  for (const auto& r : in.records)
    if (r.verdict == Verdict::correct && r.speedup && std::isfinite(*r.speedup))
      largest = std::max(largest, *r.speedup);
  const double end = std::clamp(std::ceil(largest * 1.05 * 2) / 2, kFastPCurveEnd, kFastPCurveMaxP);
  const int steps = static_cast<int>(std::lround(end / kFastPCurveStep));

  svg::XYChart chart;
  chart.title = "fast_p over the threshold p, per level";
  chart.width = 1100;  // the page's width: the curves are the headline
  chart.x = {"threshold p (speedup over the reference)", 0, end, svg::round_ticks(0, end, 6)};
  chart.y = {"fast_p (share of all candidates)", 0, 100, {}};
  for (int v = 0; v <= 100; v += 25) chart.y.ticks.push_back({double(v), fmt::format("{}%", v)});
  for (double p : metrics::kFastPThresholds) chart.markers.push_back({p, fmt::format("{:g}", p)});
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto& [name, group] = groups[g];
    const auto o = outcomes(group);
    svg::Series s{name, name == "all" ? std::string(html_assets::kAllColour) : html_assets::series_colour(g),
                  svg::SeriesStyle::line, {}};
    for (int i = 0; i <= steps; ++i) {
      const double p = i * kFastPCurveStep;
      s.points.push_back({p, 100 * metrics::fast_p(o, p), "", ""});
    }
    chart.series.push_back(std::move(s));
  }

  std::string table = "<table class=\"fast-p\"><thead><tr><th>level</th><th class=\"num\">n</th>";
  for (double p : metrics::kFastPThresholds) table += fmt::format("<th class=\"num\">fast_{:g}</th>", p);
  table += "<th class=\"num\">geomean speedup</th></tr></thead><tbody>\n";
  for (const auto& [name, group] : level_groups(in.records, true)) {
    const auto o = outcomes(group);
    table += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td>", html_escaped(name), group.size());
    for (double p : metrics::kFastPThresholds)
      table += fmt::format("<td class=\"num\">{}</td>", percent(metrics::fast_p(o, p)));
    const auto g = metrics::geometric_mean_speedup(o);
    table += fmt::format("<td class=\"num\">{}</td></tr>\n", g ? fmt::format("{:.3f}x", *g) : "-");
  }
  table += "</tbody></table>\n";
  return fmt::format("<section id=\"fast-p\"><h2>fast_p</h2>\n<p class=\"note\">The share of all the level's "
                     "candidates (failures and never-evaluated ones count) that are correct and faster than p times "
                     "the reference, for p from 0 to {:g} in steps of {:g}; dashed lines at upstream's thresholds. "
                     "fast_0 is the correctness rate.</p>\n",
                     end, kFastPCurveStep) +
         svg::xy_chart(chart) + table + "</section>\n";
}

// log2 of the speedups of the correct, timed candidates, in bins a quarter of a doubling wide
// (wider when the range is large), with a line at 1.0x. The axis takes in 0.5x to 2x at least.
std::string distribution_section(const HtmlReportInput& in) {
  std::vector<double> logs;
  for (const auto& r : in.records)
    if (r.verdict == Verdict::correct && r.speedup && *r.speedup > 0 && std::isfinite(*r.speedup))
      logs.push_back(std::log2(*r.speedup));
  const double smallest = std::min(-1.0, logs.empty() ? 0.0 : *std::min_element(logs.begin(), logs.end()));
  const double largest = std::max(1.0, logs.empty() ? 0.0 : *std::max_element(logs.begin(), logs.end()));
  constexpr int kMostBins = 40;
  double width = 0.25;
  // Bins hold [from, to); the top one starts at or below the largest value, so it holds it.
  auto low = [&] { return std::floor(smallest / width) * width; };
  auto high = [&] { return (std::floor(largest / width) + 1) * width; };
  while ((high() - low()) / width > kMostBins) width *= 2;
  const int bins = static_cast<int>(std::lround((high() - low()) / width));
  std::vector<int> counts(bins, 0);
  for (double v : logs) ++counts[std::clamp(static_cast<int>(std::floor((v - low()) / width)), 0, bins - 1)];

  svg::Histogram chart;
  chart.title = "distribution of the speedups of correct candidates";
  chart.width = 560;  // half the page: beside the verdicts
  chart.x = {"speedup over the reference (log scale)", low(), high(), {}};
  chart.y_title = "candidates";
  const int tick_step = high() - low() > 12 ? 2 : 1;
  for (int k = static_cast<int>(std::ceil(low())); k <= static_cast<int>(std::floor(high())); ++k)
    if (k % tick_step == 0) chart.x.ticks.push_back({double(k), fmt::format("{:g}x", std::exp2(k))});
  for (int b = 0; b < bins; ++b) {
    const double from = low() + b * width, to = from + width;
    chart.bins.push_back({from, to, double(counts[b]),
                          fmt::format("{:.3g}x to {:.3g}x: {} candidate(s)", std::exp2(from), std::exp2(to),
                                      counts[b])});
  }
  chart.markers.push_back({0.0, "1.0x"});
  return fmt::format("<section id=\"speedups\"><h2>Speedups</h2>\n<p class=\"note\">{} correct, timed candidate(s); "
                     "bins {:g} of a doubling wide on a log2 scale.</p>\n",
                     logs.size(), width) +
         svg::histogram(chart) + "</section>\n";
}

// Per level, how many candidates ended in each verdict: bars of shares and the counts beside them.
std::string verdicts_section(const HtmlReportInput& in) {
  const auto groups = level_groups(in.records, true);
  // The verdicts any candidate of the run got, in the enum's order (correct first).
  std::vector<Verdict> present;
  for (const auto& [verdict, count] : tally_verdicts(groups.back().second).counts) present.push_back(verdict);
  svg::StackedBars bars;
  bars.title = "verdicts per level";
  bars.width = 560;  // half the page: beside the speedups
  std::string table = "<table class=\"verdicts\"><thead><tr><th>level</th><th class=\"num\">n</th>"
                      "<th class=\"num\">built</th><th class=\"num\">correct</th><th class=\"num\">faster</th>";
  for (Verdict v : present) table += fmt::format("<th class=\"num\">{}</th>", html_assets::verdict_badge(to_string(v)));
  table += "</tr></thead><tbody>\n";
  for (const auto& [name, group] : groups) {
    svg::StackedRow row{name, {}};
    const VerdictTally t = tally_verdicts(group);
    table += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.0f}%</td>"
                         "<td class=\"num\">{:.0f}%</td><td class=\"num\">{:.0f}%</td>",
                         html_escaped(name), group.size(), 100 * t.share(t.built), 100 * t.share(t.correct),
                         100 * t.share(t.faster));
    for (Verdict v : present) {
      const size_t count = t.counts.count(v) ? t.counts.at(v) : 0;
      row.segments.push_back({std::string(to_string(v)), double(count), html_assets::verdict_colour(to_string(v))});
      table += fmt::format("<td class=\"num\" data-verdict=\"{}\">{}</td>", to_string(v), count);
    }
    table += "</tr>\n";
    bars.rows.push_back(std::move(row));
  }
  table += "</tbody></table>\n";
  return "<section id=\"verdicts\"><h2>Verdicts</h2>\n<p class=\"note\">built: no compile_error; faster: correct "
         "and above 1.0x. Never-evaluated candidates are load_error.</p>\n" +
         svg::stacked_bars(bars) + "<div class=\"wide\">" + table + "</div></section>\n";
}

// fast_p per model, where the run's candidates come from more than one (known from the store's
// model calls and agent attempts, by the candidate's source hash).
std::string models_section(const HtmlReportInput& in) {
  std::map<std::string, RecordGroup> by_model;
  for (const auto& r : in.records) {
    auto it = in.models.find(r.candidate_hash);
    by_model[it == in.models.end() ? std::string("(not known)") : it->second].push_back(&r);
  }
  if (by_model.size() - by_model.count("(not known)") < 2) return "";
  std::string out = "<section id=\"models\"><h2>Models</h2>\n<p class=\"note\">Each candidate is given to the model "
                    "whose answer it came from (kforge generate, run or agent).</p>\n"
                    "<table class=\"models\"><thead><tr><th>model</th><th class=\"num\">n</th>";
  for (double p : metrics::kFastPThresholds) out += fmt::format("<th class=\"num\">fast_{:g}</th>", p);
  out += "<th class=\"num\">geomean speedup</th></tr></thead><tbody>\n";
  for (const auto& [model, group] : by_model) {
    const auto o = outcomes(group);
    out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td>", html_name(model), group.size());
    for (double p : metrics::kFastPThresholds)
      out += fmt::format("<td class=\"num\">{}</td>", percent(metrics::fast_p(o, p)));
    const auto g = metrics::geometric_mean_speedup(o);
    out += fmt::format("<td class=\"num\">{}</td></tr>\n", g ? fmt::format("{:.3f}x", *g) : "-");
  }
  return out + "</tbody></table></section>\n";
}

// A numeric cell: the value to sort by in data-v (none: sorts last), and what it shows (HTML).
std::string number_cell(std::optional<double> value, const std::string& html) {
  if (!value || !std::isfinite(*value)) return "<td class=\"num\" data-v=\"\">" + html + "</td>";
  return fmt::format("<td class=\"num\" data-v=\"{:.9g}\">{}</td>", *value, html);
}

std::string results_section(const HtmlReportInput& in, const std::vector<ProblemEntry>& problems) {
  std::map<std::string, std::string> anchor_of;
  for (const auto& p : problems) anchor_of[p.name] = p.anchor;
  // The fastest first; candidates without a speedup after them, in the run's order.
  std::vector<const EvaluationRecord*> rows;
  for (const auto& r : in.records) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [](const EvaluationRecord* a, const EvaluationRecord* b) {
    if (a->speedup.has_value() != b->speedup.has_value()) return a->speedup.has_value();
    return a->speedup && *a->speedup > *b->speedup;
  });
  std::string out =
      "<section id=\"results\"><h2>Results</h2>\n<p class=\"note\">Every candidate of the run, by its file "
      "name in the problem's folder (hover for the whole name); click a column's header to sort by it (again to "
      "turn the order). Sorted by speedup, the fastest first. SOL: the share of the "
      "problem's speed-of-light time reached (kforge problems info --sol), on a GPU where the store holds the "
      "figures.</p>\n"
      "<table class=\"sortable results\"><thead><tr><th data-type=\"text\">problem</th><th data-type=\"text\">"
      "candidate</th><th data-type=\"text\">verdict</th><th data-type=\"number\" class=\"num\" "
      "aria-sort=\"descending\">speedup [95% CI]</th><th data-type=\"number\" class=\"num\">ref ms</th>"
      "<th data-type=\"number\" class=\"num\">cand ms</th><th data-type=\"number\" class=\"num\">SOL</th>"
      "<th data-type=\"text\">message</th></tr></thead>\n<tbody>\n";
  for (const auto* r : rows) {
    std::string speedup = format_speedup(r->speedup, r->speedup_ci);
    if (r->speedup_ci && r->cand_samples_ms.size() < kFewPairs)
      speedup += fmt::format(" <span class=\"few\">(only {} pairs)</span>", r->cand_samples_ms.size());
    const auto sol = speed_of_light_share(in, *r);
    const std::string message = r->reused ? "[stored] " + r->message : r->message;
    out += fmt::format("<tr><td class=\"name\"><a href=\"#{}\">{}</a></td><td class=\"name\" title=\"{}\">{}</td>"
                       "<td>{}{}</td>",
                       anchor_of[r->problem_name], html_breakable_name(r->problem_name), html_name(r->candidate_name),
                       html_breakable_name(candidate_label(*r)),
                       html_assets::verdict_badge(to_string(r->verdict)),
                       r->rule.empty() ? "" : " <span class=\"rule\">" + html_name(r->rule) + "</span>");
    out += number_cell(r->speedup, speedup);
    out += number_cell(r->ref_ms, format_ms(r->ref_ms)) + number_cell(r->cand_ms, format_ms(r->cand_ms));
    out += number_cell(sol, sol ? fmt::format("{:.0f}%", 100 * *sol) : "-");
    out += fmt::format("<td class=\"msg\" title=\"{}\">{}</td></tr>\n", html_escaped(message),
                       html_escaped(one_line(message, 160)));
  }
  return out + "</tbody></table></section>\n";
}

}  // namespace

std::string html_report(const HtmlReportInput& in) {
  const auto problems = problem_entries(in);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<meta name=\"generator\" content=\"kforge report --html\">\n";
  out += fmt::format("<title>kforge run {}</title>\n<style>{}</style>\n</head>\n<body>\n<script>{}</script>\n<main>\n",
                     in.run, html_assets::kStyle, html_assets::kErrorRecorder);
  out += header(in);
  out += fast_p_section(in);
  out += "<div class=\"pair\">" + distribution_section(in) + verdicts_section(in) + "</div>\n";
  out += models_section(in);
  out += results_section(in, problems);
  out += problem_sections(in, problems);
  out += fmt::format("</main>\n<script>{}</script>\n</body></html>\n", html_assets::kSortScript);
  return out;
}

}  // namespace kforge::report
