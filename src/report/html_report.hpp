#pragma once
// `kforge report --html FILE`: one self-contained HTML page of a stored run (inline CSS, scripts
// and SVG; nothing fetched when it is opened), fed by the same records as the console table and
// the JSON. docs/reports.md describes the page.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/evaluation.hpp"

namespace kforge::report {

// One attempt of a kforge agent search, as the trajectory chart draws it.
struct AgentAttempt {
  std::string problem_name;
  int64_t node_id = 0;
  int round = 0;
  std::string role, model;
  std::string verdict;             // the evaluation's, or the call's outcome when nothing ran (no_code)
  std::optional<double> speedup;   // where it was correct and timed
  bool kernel_win = true;          // false: correct, but library kernels did most of the work
};

// Everything the page shows beyond the records comes from the store through the caller, so the
// page is a pure function of this value (and a unit test builds one by hand).
struct HtmlReportInput {
  int64_t run = 0;
  std::string name;        // its --name; empty when unnamed
  std::string command;     // the run's command line
  std::string started_at;  // UTC, as stored
  // As `kforge report` builds them: the run's evaluations, then a load_error row for each
  // candidate it never evaluated (run_gaps), those last. Never empty.
  std::vector<EvaluationRecord> records;
  size_t never_evaluated = 0;  // how many of the records are such rows
  std::string baseline;        // empty: speedups against the reference timed beside the candidate
  std::vector<std::string> baseline_missing;  // problems of correct candidates without that baseline
  std::map<std::string, std::string> sources;       // candidate hash -> its source, as the store keeps it
  std::map<std::string, double> speed_of_light_ms;  // problem hash -> SOL time on the run's device [ms]
  std::map<std::string, std::string> models;        // candidate hash -> the model that wrote it
  std::vector<AgentAttempt> attempts;               // in the order made; empty unless an agent run
};

// The page's p axis runs from 0 to this (further when a speedup is larger, up to kFastPCurveMaxP),
// in steps of kFastPCurveStep.
inline constexpr double kFastPCurveEnd = 3.0;
inline constexpr double kFastPCurveMaxP = 10.0;
inline constexpr double kFastPCurveStep = 0.01;

// A source longer than this is cut in the page (a candidate file may be up to 4 MiB) [bytes].
inline constexpr size_t kSourceShown = 200 * 1024;

std::string html_report(const HtmlReportInput& input);

}  // namespace kforge::report
