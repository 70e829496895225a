// kforge report --html without a store: the escaping, the SVG primitives' output for empty, one
// and many values, and the page for a hand-built run.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "metrics/fast_p.hpp"
#include "report/html_escape.hpp"
#include "report/html_report.hpp"
#include "report/svg_charts.hpp"

namespace kforge::report {
namespace {

// Whether `text` is well-formed XML as far as the charts use it: every element closed in order
// (or self-closed), attribute values quoted, and no bare '<' or '&' in text or values. Returns
// what is wrong, or nothing.
std::string xml_problem(const std::string& text) {
  std::vector<std::string> open;
  auto entity_at = [&](size_t i) {
    static const std::regex entity("^&(amp|lt|gt|quot|#39|#[0-9]+);");
    return std::regex_search(text.begin() + static_cast<long>(i), text.end(), entity);
  };
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '&') {
      if (!entity_at(i)) return "a bare & at " + std::to_string(i);
      ++i;
      continue;
    }
    if (text[i] != '<') {
      ++i;
      continue;
    }
    const bool closing = i + 1 < text.size() && text[i + 1] == '/';
    size_t j = i + (closing ? 2 : 1);
    const size_t name_start = j;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '-')) ++j;
    const std::string name = text.substr(name_start, j - name_start);
    if (name.empty()) return "a bare < at " + std::to_string(i);
    // Attributes: name="value", values without '<' and with entities only.
    while (j < text.size() && text[j] != '>' && !(text[j] == '/' && j + 1 < text.size() && text[j + 1] == '>')) {
      if (text[j] == '"') {
        const size_t end = text.find('"', j + 1);
        if (end == std::string::npos) return "an unterminated attribute in <" + name + ">";
        for (size_t k = j + 1; k < end; ++k) {
          if (text[k] == '<') return "a < inside an attribute of <" + name + ">";
          if (text[k] == '&' && !entity_at(k)) return "a bare & inside an attribute of <" + name + ">";
        }
        j = end + 1;
      } else {
        ++j;
      }
    }
    if (j >= text.size()) return "an unterminated tag <" + name + ">";
    const bool self_closing = text[j] == '/';
    i = j + (self_closing ? 2 : 1);
    if (closing) {
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">");
      open.pop_back();
    } else if (!self_closing) {
      open.push_back(name);
    }
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return "";
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

TEST(HtmlEscape, NamesFromRecordsComeOutAsText) {
  EXPECT_EQ(html_escaped("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
  EXPECT_EQ(html_escaped("for (i = 0; i < n; ++i)\n\tx &= y;"), "for (i = 0; i &lt; n; ++i)\n\tx &amp;= y;");
  // A name's newlines and escape codes are shown as visible escapes, then escaped for HTML.
  EXPECT_EQ(html_name("evil\n<b>\x1b[2J&.py"), "evil\\n&lt;b&gt;\\x1b[2J&amp;.py");
  EXPECT_EQ(html_escaped(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(html_breakable_name("level1/1_<b>.py"), "level1/<wbr>1_<wbr>&lt;b&gt;.py");
  EXPECT_EQ(html_escaped(""), "");
}

TEST(SvgCharts, RoundTicks) {
  auto ticks = svg::round_ticks(0, 3);
  ASSERT_FALSE(ticks.empty());
  EXPECT_EQ(ticks.front().label, "0");
  EXPECT_EQ(ticks.back().label, "3");
  for (const auto& t : svg::round_ticks(-0.3, 0.3)) EXPECT_NE(t.label, "-0") << t.label;
  EXPECT_EQ(svg::round_ticks(2, 2).size(), 1u);
  EXPECT_TRUE(svg::round_ticks(0, NAN).empty());
}

svg::XYChart line_chart(size_t points) {
  svg::XYChart c;
  c.title = "a <chart> & more";
  c.x = {"x", 0, 10, {}};
  c.y = {"y", 0, 1, {}};
  svg::Series s{"level1 <&>", "#123456", svg::SeriesStyle::line, {}};
  for (size_t i = 0; i < points; ++i) s.points.push_back({10.0 * double(i) / double(points), 0.5, "", ""});
  c.series.push_back(s);
  c.markers.push_back({1.0, "1"});
  return c;
}

TEST(SvgCharts, LineChartIsWellFormedForEmptyOneAndManyPoints) {
  const std::string empty = svg::xy_chart(line_chart(0));
  EXPECT_EQ(xml_problem(empty), "") << empty;
  EXPECT_NE(empty.find("no data"), std::string::npos);
  EXPECT_NE(empty.find("a &lt;chart&gt; &amp; more"), std::string::npos) << empty;

  const std::string one = svg::xy_chart(line_chart(1));
  EXPECT_EQ(xml_problem(one), "") << one;
  EXPECT_EQ(occurrences(one, "<circle"), 1u) << "a line through one point shows the point\n" << one;
  EXPECT_NE(one.find("level1 &lt;&amp;&gt;"), std::string::npos) << one;

  const std::string many = svg::xy_chart(line_chart(1000));
  EXPECT_EQ(xml_problem(many), "");
  EXPECT_EQ(occurrences(many, " L"), 999u);
  EXPECT_EQ(many, svg::xy_chart(line_chart(1000))) << "the same input gives the same bytes";
}

TEST(SvgCharts, ValuesThatAreNotFiniteAreLeftOut) {
  auto c = line_chart(3);
  c.series[0].points[1].y = NAN;
  c.series[0].points.push_back({INFINITY, 1, "", ""});
  c.series.push_back({"dots", "#000", svg::SeriesStyle::dots, {{1, 0.2, "tip <1>", "#f00"}, {NAN, 0.1, "", ""}}});
  c.series.push_back({"best", "#000", svg::SeriesStyle::step, {{1, 0.2, "", ""}, {2, 0.4, "", ""}}});
  const std::string out = svg::xy_chart(c);
  EXPECT_EQ(xml_problem(out), "") << out;
  EXPECT_EQ(out.find("nan"), std::string::npos) << out;
  EXPECT_EQ(out.find("inf"), std::string::npos) << out;
  EXPECT_EQ(occurrences(out, "<circle"), 1u) << out;
  EXPECT_NE(out.find("<title>tip &lt;1&gt;</title>"), std::string::npos) << out;
  EXPECT_NE(out.find(" H"), std::string::npos) << "a step series draws steps\n" << out;
}

TEST(SvgCharts, HistogramIsWellFormedForEmptyOneAndManyBins) {
  svg::Histogram h;
  h.title = "speedups";
  h.x = {"log2", -1, 1, {{0, "1x"}}};
  EXPECT_EQ(xml_problem(svg::histogram(h)), "");
  EXPECT_NE(svg::histogram(h).find("no data"), std::string::npos);
  h.bins.push_back({0, 0.25, 3, "1x to 1.19x: 3"});
  h.markers.push_back({0, "1.0x"});
  const std::string one = svg::histogram(h);
  EXPECT_EQ(xml_problem(one), "") << one;
  EXPECT_EQ(occurrences(one, "class=\"bar\""), 1u);
  EXPECT_NE(one.find(">1.0x<"), std::string::npos);
  for (int i = 0; i < 40; ++i) h.bins.push_back({-1 + i * 0.05, -1 + (i + 1) * 0.05, double(i % 7), ""});
  const std::string many = svg::histogram(h);
  EXPECT_EQ(xml_problem(many), "");
  EXPECT_EQ(occurrences(many, "class=\"bar\""), 1u + 40u - 6u) << "empty bins draw no bar";
}

TEST(SvgCharts, StackedBarsAndSampleStripAreWellFormed) {
  svg::StackedBars bars;
  bars.title = "verdicts";
  EXPECT_EQ(xml_problem(svg::stacked_bars(bars)), "");
  bars.rows.push_back({"level1", {{"correct", 3, "#0a0"}, {"incorrect", 1, "#a00"}}});
  bars.rows.push_back({"all", {}});
  const std::string two = svg::stacked_bars(bars);
  EXPECT_EQ(xml_problem(two), "") << two;
  EXPECT_NE(two.find("<title>correct: 3 (75%)</title>"), std::string::npos) << two;
  EXPECT_NE(two.find("empty-bar"), std::string::npos);

  svg::SampleStrip strip;
  strip.title = "samples";
  strip.x_title = "ms";
  EXPECT_EQ(xml_problem(svg::sample_strip(strip)), "");
  strip.rows.push_back({"reference", {1.0}, "#00f"});
  EXPECT_EQ(xml_problem(svg::sample_strip(strip)), "") << svg::sample_strip(strip);
  strip.rows.push_back({"candidate", {}, "#f80"});
  for (int i = 0; i < 400; ++i) strip.rows[0].values.push_back(1.0 + 0.001 * i);
  const std::string many = svg::sample_strip(strip);
  EXPECT_EQ(xml_problem(many), "");
  EXPECT_EQ(occurrences(many, "class=\"sample\""), 401u);
}

EvaluationRecord record(int level, int id, const std::string& problem, const std::string& candidate, Verdict v,
                        std::optional<double> speedup) {
  EvaluationRecord r;
  r.problem_name = problem;
  r.problem_hash = "p-" + problem;
  r.candidate_name = candidate;
  r.candidate_hash = "c-" + candidate;
  r.level = level;
  r.problem_id = id;
  r.device = "cpu";
  r.device_name = "cpu";
  r.torch_version = "2.11.0";
  r.verdict = v;
  r.speedup = speedup;
  r.trials_total = 5;
  r.trials_passed = v == Verdict::correct ? 5 : 1;
  if (speedup) {
    r.ref_ms = 2.0;
    r.cand_ms = 2.0 / *speedup;
    r.speedup_ci = stats::Interval{*speedup * 0.98, *speedup * 1.02};
    for (int i = 0; i < 20; ++i) {
      r.ref_samples_ms.push_back(2.0 + 0.01 * i);
      r.cand_samples_ms.push_back(*r.cand_ms + 0.01 * i);
    }
  }
  r.message = v == Verdict::correct ? "ok" : "output differs at [0]: 1 vs <2> & more";
  return r;
}

HtmlReportInput small_run() {
  HtmlReportInput in;
  in.run = 7;
  in.command = "kforge eval --device cpu runs/x";
  in.started_at = "2025-01-02T03:04:05Z";
  in.records = {
      record(1, 1, "level1/1_Add", "fast.py", Verdict::correct, 2.0),
      record(1, 1, "level1/1_Add", "slow.py", Verdict::correct, 0.8),
      record(1, 2, "level1/2_<script>alert(1)</script>", "x&y.py", Verdict::incorrect, std::nullopt),
      record(2, 1, "level2/1_Gemm", "gemm.py", Verdict::compile_error, std::nullopt),
  };
  // A candidate the run never evaluated, as report builds it from run_gaps: no hash, no source.
  EvaluationRecord gap = record(2, 1, "level2/1_Gemm", "model sample 1", Verdict::load_error, std::nullopt);
  gap.candidate_hash.clear();
  gap.message = "no candidate: the generation ended no_code";
  in.records.push_back(gap);
  in.never_evaluated = 1;
  in.sources["c-fast.py"] = "import torch\n# a < b && c > d\nclass ModelNew: pass\n";
  in.sources["c-x&y.py"] = "print('<script>')\n";
  in.speed_of_light_ms["p-level1/1_Add"] = 0.5;
  return in;
}

// The page's table cell of a level's fast_p column, as the fast_p table prints it.
std::string fast_p_row(const std::string& level, size_t n, const std::vector<double>& shares) {
  std::string row = "<tr><td>" + level + "</td><td class=\"num\">" + std::to_string(n) + "</td>";
  for (double s : shares) {
    char cell[64];
    std::snprintf(cell, sizeof cell, "<td class=\"num\">%.1f%%</td>", 100 * s);
    row += cell;
  }
  return row;
}

TEST(HtmlReport, PageHoldsEveryProblemTheVerdictCountsAndFastP) {
  const auto in = small_run();
  const std::string page = html_report(in);
  ASSERT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* part : {">level1/1_Add<", ">level2/1_Gemm<", ">level1/2_&lt;script&gt;alert(1)&lt;/script&gt;<",
                           ">fast.py<", ">slow.py<", ">x&amp;y.py<", "kforge eval --device cpu runs/x",
                           "2025-01-02T03:04:05Z"})
    EXPECT_NE(page.find(part), std::string::npos) << part;
  // Nothing from a record reaches the page unescaped.
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("print('<script>')"), std::string::npos);
  EXPECT_NE(page.find("print(&#39;&lt;script&gt;&#39;)"), std::string::npos);
  EXPECT_NE(page.find("1 vs &lt;2&gt; &amp; more"), std::string::npos);
  EXPECT_EQ(occurrences(page, "<script>"), 2u) << "the page's own two scripts only";

  // Verdict counts per level and over all.
  EXPECT_NE(page.find("<td>level1</td><td class=\"num\">3</td>"), std::string::npos);
  EXPECT_NE(page.find("data-verdict=\"correct\">2<"), std::string::npos) << page;
  EXPECT_NE(page.find("data-verdict=\"incorrect\">1<"), std::string::npos);
  EXPECT_NE(page.find("data-verdict=\"compile_error\">1<"), std::string::npos);
  EXPECT_NE(page.find("data-verdict=\"load_error\">1<"), std::string::npos);

  // fast_p at upstream's thresholds, as metrics::fast_p gives them (0, 0.5, 0.8, 1, 1.5, 2).
  auto shares = [](std::vector<metrics::Outcome> o) {
    std::vector<double> out;
    for (double p : metrics::kFastPThresholds) out.push_back(metrics::fast_p(o, p));
    return out;
  };
  const auto level1 = shares({{true, 2.0}, {true, 0.8}, {false, {}}});
  EXPECT_NEAR(level1[0], 2.0 / 3, 1e-12);
  EXPECT_NE(page.find(fast_p_row("level1", 3, level1)), std::string::npos) << fast_p_row("level1", 3, level1);
  EXPECT_NE(page.find(fast_p_row("level2", 2, shares({{false, {}}, {false, {}}}))), std::string::npos);
  EXPECT_NE(page.find(fast_p_row("all", 5, shares({{true, 2.0}, {true, 0.8}, {false, {}}, {false, {}}, {false, {}}}))),
            std::string::npos);

  // The header's counts, the sections, the anchors the table links to.
  EXPECT_NE(page.find("<div class=\"value\">4</div><div class=\"label\">evaluations</div>"), std::string::npos);
  EXPECT_NE(page.find("<div class=\"value\">1</div><div class=\"label\">never evaluated</div>"), std::string::npos);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_NE(page.find("href=\"#problem-" + std::to_string(i) + "\""), std::string::npos) << i;
    EXPECT_NE(page.find("id=\"problem-" + std::to_string(i) + "\""), std::string::npos) << i;
  }
  // The fastest first; the best candidate's source escaped in <pre>; a gap has none.
  EXPECT_LT(page.find("<td class=\"name\">fast.py"), page.find("<td class=\"name\">slow.py"));
  EXPECT_NE(page.find("# a &lt; b &amp;&amp; c &gt; d"), std::string::npos);
  EXPECT_NE(page.find("source not stored"), std::string::npos);
  // SOL: 0.5 ms over fast.py's 1 ms.
  EXPECT_NE(page.find("data-v=\"0.5\">50%</td>"), std::string::npos);
  // The script says when it is ready and records errors.
  EXPECT_NE(page.find("document.body.dataset.ready = \"1\""), std::string::npos);
  EXPECT_NE(page.find("window.onerror"), std::string::npos);
  EXPECT_EQ(page.find("id=\"models\""), std::string::npos) << "no model is known";
  EXPECT_EQ(page.find("Agent attempts"), std::string::npos);
  // Every chart is well-formed SVG.
  size_t charts = 0;
  for (size_t at = page.find("<svg"); at != std::string::npos; at = page.find("<svg", at + 1), ++charts) {
    const size_t end = page.find("</svg>", at);
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(xml_problem(page.substr(at, end + 6 - at)), "") << page.substr(at, end + 6 - at);
  }
  EXPECT_EQ(charts, 4u);  // fast_p, speedups, verdicts, the samples of the one timed problem
  // Nothing to fetch: no external script, style, font or image.
  for (const char* external : {"src=", "<link", "href=\"http", "@import", "url("})
    EXPECT_EQ(page.find(external), std::string::npos) << external;
  EXPECT_EQ(page, html_report(in)) << "the same run gives the same page";
}

// Where two reference twins took turns, each one's samples are a row of their own, so that a twin
// that drew a speed of its own shows apart; with one process, one row.
TEST(HtmlReport, TheReferenceSamplesOfTwoTwinsAreRowsOfTheirOwn) {
  auto in = small_run();
  const std::string one = html_report(in);
  EXPECT_NE(one.find(">reference</text>"), std::string::npos);
  EXPECT_EQ(one.find("twin 1"), std::string::npos);
  EvaluationRecord& fast = in.records[0];  // the problem's shown candidate
  for (size_t i = 0; i < fast.ref_samples_ms.size(); ++i) fast.ref_process.push_back(static_cast<int>(i / 2 % 2));
  const std::string two = html_report(in);
  EXPECT_NE(two.find(">reference, twin 1</text>"), std::string::npos);
  EXPECT_NE(two.find(">reference, twin 2</text>"), std::string::npos);
  EXPECT_EQ(two.find(">reference</text>"), std::string::npos);
}

TEST(HtmlReport, AgentAttemptsAndSeveralModels) {
  auto in = small_run();
  in.models["c-fast.py"] = "gpt";
  in.models["c-slow.py"] = "claude";
  in.attempts = {{"level1/1_Add", 11, 0, "coder", "gpt", "compile_error", std::nullopt, true},
                 {"level1/1_Add", 12, 1, "debugger", "gpt", "correct", 1.5, true},
                 {"level1/1_Add", 13, 2, "refiner", "claude", "correct", 2.0, true},
                 {"level3/9_Only_Attempts", 14, 0, "coder", "gpt", "no_code", std::nullopt, true}};
  const std::string page = html_report(in);
  EXPECT_NE(page.find("id=\"models\""), std::string::npos);
  EXPECT_NE(page.find("<td>claude</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>(not known)</td>"), std::string::npos);
  EXPECT_EQ(occurrences(page, "Agent attempts"), 2u);
  EXPECT_NE(page.find("attempt 1 (#11, round 0, coder, gpt): compile_error"), std::string::npos);
  EXPECT_NE(page.find("attempt 3 (#13, round 2, refiner, claude): correct 2.000x"), std::string::npos);
  EXPECT_NE(page.find("level3/9_Only_Attempts"), std::string::npos);
  EXPECT_NE(page.find("No evaluation"), std::string::npos);
}

}  // namespace
}  // namespace kforge::report
