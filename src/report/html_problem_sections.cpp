#include "report/html_problem_sections.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "report/formatting.hpp"
#include "report/html_assets.hpp"
#include "report/html_escape.hpp"
#include "report/svg_charts.hpp"

namespace kforge::report {
namespace {

std::string verdict_counts(const std::vector<const EvaluationRecord*>& records) {
  std::map<std::string, int> counts;
  for (const auto* r : records) ++counts[std::string(to_string(r->verdict))];
  std::string out;
  for (const auto& [verdict, count] : counts) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", verdict, count);
  return out;
}

// Every candidate of the problem, when it has more than one: which was shown and how the others did.
std::string candidates_table(const std::vector<const EvaluationRecord*>& records, const EvaluationRecord* shown) {
  std::string out = "<table class=\"candidates\"><thead><tr><th>candidate</th><th>verdict</th>"
                    "<th class=\"num\">speedup [95% CI]</th><th></th></tr></thead><tbody>\n";
  for (const auto* r : records)
    out += fmt::format("<tr><td class=\"name\">{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                       html_breakable_name(candidate_label(*r)), html_assets::verdict_badge(to_string(r->verdict)),
                       html_escaped(format_speedup(r->speedup, r->speedup_ci)), r == shown ? "shown below" : "");
  return out + "</tbody></table>\n";
}

std::string timings(const HtmlReportInput& in, const EvaluationRecord& r) {
  std::string out = "<dl class=\"facts\">\n";
  auto fact = [&](const std::string& name, const std::string& html) {
    out += "<dt>" + name + "</dt><dd>" + html + "</dd>\n";
  };
  fact("verdict", html_assets::verdict_badge(to_string(r.verdict)) +
                      (r.rule.empty() ? "" : " <span class=\"rule\">rule " + html_name(r.rule) + "</span>"));
  fact("reference median", html_escaped(format_ms(r.ref_ms)) + " ms");
  fact("candidate median", html_escaped(format_ms(r.cand_ms)) + " ms");
  fact("speedup", r.speedup ? fmt::format("{:.3f}x", *r.speedup) : "-");
  fact("95% interval", r.speedup_ci ? fmt::format("[{:.3f}, {:.3f}]", r.speedup_ci->low, r.speedup_ci->high) : "-");
  fact("timed pairs", std::to_string(r.cand_samples_ms.size()));
  if (r.trials_total > 0) fact("correctness trials", fmt::format("{} of {} passed", r.trials_passed, r.trials_total));
  if (r.max_abs_error) fact("max abs error", fmt::format("{:.2g}", *r.max_abs_error));
  if (auto sol = in.speed_of_light_ms.find(r.problem_hash); sol != in.speed_of_light_ms.end()) {
    const auto share = speed_of_light_share(in, r);
    fact("speed of light", fmt::format("{:.4g} ms{}", sol->second,
                                       share ? fmt::format(" ({:.0f}% of it reached)", 100 * *share) : ""));
  }
  return out + "</dl>\n";
}

// The per-pair samples of both sides, where the store holds them; the reference's in a row per
// timing process where two took turns (docs/evaluation.md, "The boundary"), so that a process that
// drew a speed of its own shows as a row apart.
std::string samples_strip(const EvaluationRecord& r) {
  if (r.ref_samples_ms.empty() && r.cand_samples_ms.empty()) return "";
  svg::SampleStrip strip;
  strip.title = "timed samples of the reference and the candidate";
  strip.x_title = "time per call [ms]";
  if (r.ref_process.size() == r.ref_samples_ms.size() && !r.ref_process.empty()) {
    std::vector<double> first, second;
    for (size_t i = 0; i < r.ref_samples_ms.size(); ++i) (r.ref_process[i] == 0 ? first : second).push_back(r.ref_samples_ms[i]);
    strip.rows = {{"reference, twin 1", std::move(first), "#4c78a8"}, {"reference, twin 2", std::move(second), "#72b7b2"}};
  } else {
    strip.rows = {{"reference", r.ref_samples_ms, "#4c78a8"}};
  }
  strip.rows.push_back({"candidate", r.cand_samples_ms, "#f58518"});
  return svg::sample_strip(strip);
}

std::string source_block(const HtmlReportInput& in, const EvaluationRecord& r) {
  auto it = in.sources.find(r.candidate_hash);
  if (r.candidate_hash.empty() || it == in.sources.end())
    return "<p class=\"note\">source not stored</p>\n";
  const std::string& source = it->second;
  const auto lines = std::count(source.begin(), source.end(), '\n') + (!source.empty() && source.back() != '\n');
  std::string shown = source;
  std::string cut;
  if (shown.size() > kSourceShown) {
    size_t at = kSourceShown;
    while (at > 0 && (static_cast<unsigned char>(shown[at]) & 0xc0) == 0x80) --at;  // a UTF-8 boundary
    shown.resize(at);
    cut = fmt::format("<p class=\"note\">cut at {} of {} bytes</p>\n", at, source.size());
  }
  return fmt::format("<details open><summary>source of {} ({} lines)</summary>"
                     "<pre class=\"source\">{}</pre></details>\n{}",
                     html_name(r.candidate_name), lines, html_escaped(shown), cut);
}

// Attempt k on x, its speedup on y (a failure at 0, coloured by its verdict), and the best so far
// as kforge agent show counts it: correct, with its own kernels doing most of the work.
std::string trajectory(const ProblemEntry& p) {
  const auto& attempts = p.attempts;
  const double n = double(attempts.size());
  double top = 1.25;
  svg::Series dots{"", "#4c78a8", svg::SeriesStyle::dots, {}};  // coloured by verdict: the badges are its legend
  svg::Series best{"best so far", "#222222", svg::SeriesStyle::step, {}};
  double best_so_far = 0;
  for (size_t k = 0; k < attempts.size(); ++k) {
    const auto& a = *attempts[k];
    const bool timed = a.verdict == "correct" && a.speedup && std::isfinite(*a.speedup);
    const double y = timed ? *a.speedup : 0.0;
    top = std::max(top, y * 1.1);
    std::string what = a.verdict.empty() ? "not evaluated" : a.verdict;
    if (timed) what += fmt::format(" {:.3f}x{}", *a.speedup, a.kernel_win ? "" : " (library kernels)");
    dots.points.push_back({double(k + 1), y,
                           fmt::format("attempt {} (#{}, round {}, {}, {}): {}", k + 1, a.node_id, a.round, a.role,
                                       a.model, what),
                           html_assets::verdict_colour(a.verdict)});
    if (timed && a.kernel_win) best_so_far = std::max(best_so_far, *a.speedup);
    if (best_so_far > 0) best.points.push_back({double(k + 1), best_so_far, "", ""});
  }
  svg::XYChart chart;
  chart.title = "attempts of " + p.name;
  chart.height = 260;
  chart.x = {"attempt", 0.5, n + 0.5, {}};
  for (const auto& t : svg::round_ticks(1, std::max(1.0, n), std::min(10, static_cast<int>(n))))
    if (t.at == std::floor(t.at)) chart.x.ticks.push_back(t);
  chart.y = {"speedup (failures at 0)", 0, top, {}};
  chart.series.push_back({"", "#bbbbbb", svg::SeriesStyle::line, {{0.5, 1.0, "", ""}, {n + 0.5, 1.0, "", ""}}});
  chart.series.push_back(std::move(best));
  chart.series.push_back(std::move(dots));
  std::map<std::string, int> verdicts;
  for (const auto* a : attempts) ++verdicts[a->verdict.empty() ? "not evaluated" : a->verdict];
  std::string legend;
  for (const auto& [verdict, count] : verdicts)
    legend += " " + html_assets::verdict_badge(verdict) + fmt::format(" {}", count);
  return fmt::format("<h4>Agent attempts ({})</h4>\n<p class=\"note\">The grey line is 1.0x; hover a dot for the "
                     "attempt.{}</p>\n",
                     attempts.size(), legend) +
         svg::xy_chart(chart);
}

std::string section(const HtmlReportInput& in, const ProblemEntry& p) {
  std::string out = fmt::format("<section class=\"problem\" id=\"{}\"><h3>{}</h3>\n", p.anchor, html_name(p.name));
  if (p.records.empty()) {
    out += "<p class=\"note\">No evaluation: no attempt gave a candidate to evaluate.</p>\n";
  } else {
    const EvaluationRecord* shown = best_candidate(p.records);
    out += fmt::format("<p>{} candidate(s): {}. Shown: <code>{}</code>, the best of them.</p>\n", p.records.size(),
                       html_escaped(verdict_counts(p.records)), html_name(shown->candidate_name));
    if (p.records.size() > 1) out += candidates_table(p.records, shown);
    out += "<div class=\"charts-row\">" + timings(in, *shown) + samples_strip(*shown) + "</div>\n";
    if (!shown->message.empty())
      out += "<pre class=\"source message\">" + html_escaped(shown->message) + "</pre>\n";
    out += source_block(in, *shown);
  }
  if (!p.attempts.empty()) out += trajectory(p);
  return out + "</section>\n";
}

}  // namespace

std::optional<double> speed_of_light_share(const HtmlReportInput& in, const EvaluationRecord& r) {
  auto sol = in.speed_of_light_ms.find(r.problem_hash);
  if (sol == in.speed_of_light_ms.end() || r.verdict != Verdict::correct || !r.cand_ms || *r.cand_ms <= 0)
    return std::nullopt;
  return sol->second / *r.cand_ms;
}

std::string candidate_label(const EvaluationRecord& r) {
  const std::string folder = r.problem_name + "/";
  if (r.candidate_name.size() > folder.size() && r.candidate_name.compare(0, folder.size(), folder) == 0)
    return r.candidate_name.substr(folder.size());
  return r.candidate_name;
}

const EvaluationRecord* best_candidate(const std::vector<const EvaluationRecord*>& records) {
  const EvaluationRecord* best = nullptr;
  auto rank = [](const EvaluationRecord* r) {
    // correct and timed, then correct, then evaluated (it has a candidate), then the rest
    return r->verdict == Verdict::correct ? (r->speedup ? 3 : 2) : (r->candidate_hash.empty() ? 0 : 1);
  };
  for (const auto* r : records) {
    if (!best || rank(r) > rank(best) ||
        (rank(r) == 3 && rank(best) == 3 && *r->speedup > *best->speedup))
      best = r;
  }
  return best;
}

std::vector<ProblemEntry> problem_entries(const HtmlReportInput& in) {
  std::map<std::string, ProblemEntry> by_name;
  std::map<std::string, std::tuple<int, int>> order;
  for (const auto& r : in.records) {
    by_name[r.problem_name].records.push_back(&r);
    order.emplace(r.problem_name, std::tuple{r.level, r.problem_id});
  }
  // A problem only attempts reached (none gave a candidate) goes after the evaluated ones.
  for (const auto& a : in.attempts) {
    by_name[a.problem_name].attempts.push_back(&a);
    order.emplace(a.problem_name, std::tuple{INT_MAX, INT_MAX});
  }
  std::vector<ProblemEntry> out;
  for (auto& [name, entry] : by_name) {
    entry.name = name;
    out.push_back(std::move(entry));
  }
  std::stable_sort(out.begin(), out.end(),
                   [&](const ProblemEntry& a, const ProblemEntry& b) { return order[a.name] < order[b.name]; });
  for (size_t i = 0; i < out.size(); ++i) out[i].anchor = fmt::format("problem-{}", i + 1);
  return out;
}

std::string problem_sections(const HtmlReportInput& in, const std::vector<ProblemEntry>& problems) {
  std::string out = "<section id=\"problems\"><h2>Problems</h2>\n";
  for (const auto& p : problems) out += section(in, p);
  return out + "</section>\n";
}

}  // namespace kforge::report
