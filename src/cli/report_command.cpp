// kforge report: a stored run's results and its fast_p table, and with --html a page of it.
#include <filesystem>
#include <functional>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/problems_info.hpp"
#include "cli/stored_run.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "report/formatting.hpp"
#include "report/html_report.hpp"
#include "report/results_table.hpp"
#include "report/upstream_baselines.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct ReportOptions {
  std::string run;  // id or name; empty: the latest run
  bool list_runs = false;
  bool json = false;
  bool wide = false;  // the results table with every cell whole, whatever the terminal's width
  bool results = false;
  std::string baseline;       // empty: the live reference; else a stored kforge baseline mode
  std::string baseline_file;  // else an upstream baseline file (baseline_time_torch.json)
  std::string html;      // empty: no page; else the file the page is written to
};

// Where the page goes must be a file in a folder that exists: said before anything is read, so
// a typo costs nothing (exit 1, no file written anywhere else).
void check_html_target(const std::string& file) {
  namespace fs = std::filesystem;
  const fs::path path(file);
  const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw Error(fmt::format("--html {}: the folder {} does not exist", file, folder.string()));
  if (fs::is_directory(path, ec)) throw Error(fmt::format("--html {}: is a folder; give a file name", file));
}

// The precision the record was evaluated at, as its settings say (fp32 when they do not).
std::string precision_of(const EvaluationRecord& r) {
  if (r.settings.is_object() && r.settings.contains("precision") && r.settings["precision"].is_string())
    return r.settings["precision"].get<std::string>();
  return "fp32";
}

// What the page shows beyond the records, from the store: each candidate's source, the speed of
// light of each problem on the run's GPU (where `problems info --sol` stored its figures and the
// device's rates), the model of each candidate, and an agent run's attempts.
report::HtmlReportInput page_input(Store& store, int64_t run, std::vector<EvaluationRecord> records, size_t gaps) {
  report::HtmlReportInput in;
  in.run = run;
  if (auto info = store.run_info(run)) {
    in.name = info->name;
    in.command = info->command;
    in.started_at = info->started_at;
  }
  const auto models = store.candidate_models();
  std::map<std::string, std::string> problem_names;
  for (const auto& r : records) {
    if (r.candidate_hash.empty()) continue;  // a run gap: no candidate
    problem_names.emplace(r.problem_hash, r.problem_name);
    if (!in.sources.count(r.candidate_hash))
      if (auto source = store.candidate_source(r.candidate_hash)) in.sources[r.candidate_hash] = *source;
    if (auto m = models.find(r.candidate_hash); m != models.end()) in.models[r.candidate_hash] = m->second;
    // The figures are for the problem's own sizes, which a CPU run does not evaluate (it takes the
    // problem's cpu_sizes): the speed of light is shown for GPU runs only.
    if (r.device == "cpu" || in.speed_of_light_ms.count(r.problem_hash)) continue;
    auto peaks = store.find_device_peaks(r.device_name, r.torch_version);
    auto metadata = store.find_problem_metadata(r.problem_hash, r.torch_version, precision_of(r));
    if (peaks && metadata)
      if (auto sol = problem_speed_of_light(*metadata, *peaks)) in.speed_of_light_ms[r.problem_hash] = sol->ms;
  }
  for (const auto& n : store.agent_nodes(run)) {
    auto name = problem_names.find(n.problem_hash);
    in.attempts.push_back({name != problem_names.end() ? name->second : "problem " + n.problem_hash.substr(0, 12), n.id,
                           n.round, n.role, n.model, n.verdict.value_or(n.outcome), n.speedup, n.kernel_win});
  }
  in.records = std::move(records);
  in.never_evaluated = gaps;
  return in;
}

// Speedups against a baseline time of each problem instead of the reference timed beside the
// candidate: the baseline's time over the candidate's median, as upstream computes them from its
// baseline files. A correct candidate whose problem `baseline_ms` has no time for keeps no
// speedup (it counts as not fast) and is listed.
std::vector<std::string> use_baseline(std::vector<EvaluationRecord>& records,
                                      const std::function<std::optional<double>(const EvaluationRecord&)>& baseline_ms) {
  std::vector<std::string> missing;
  for (auto& r : records) {
    r.speedup_ci.reset();  // the interval belongs to the paired comparison, not to this ratio
    if (r.verdict != Verdict::correct || !r.cand_ms || *r.cand_ms <= 0) {
      r.speedup.reset();
      continue;
    }
    if (auto ms = baseline_ms(r)) {
      r.speedup = *ms / *r.cand_ms;
      r.ref_ms = ms;
    } else {
      r.speedup.reset();
      missing.push_back(r.problem_name);
    }
  }
  return missing;
}

// A stored kforge baseline of the same problem file, device and torch version.
std::vector<std::string> use_stored_baseline(Store& store, const std::string& mode, std::vector<EvaluationRecord>& records) {
  return use_baseline(records, [&](const EvaluationRecord& r) -> std::optional<double> {
    // kforge baseline names a CPU "cpu" (its hardware field, as upstream's files do).
    auto b = store.find_baseline(r.problem_hash, mode, r.device == "cpu" ? "cpu" : r.device_name, r.torch_version);
    if (b && b->median_ms && !b->error) return b->median_ms;
    return std::nullopt;
  });
}

// An upstream baseline file's mean time of the problem of that level and file name (upstream's
// own problems: a run of kforge eval --suite KernelBench/KernelBench).
std::vector<std::string> use_upstream_baseline_file(const report::UpstreamBaselines& file,
                                                    std::vector<EvaluationRecord>& records) {
  return use_baseline(records, [&](const EvaluationRecord& r) -> std::optional<double> {
    auto it = file.mean_ms.find(r.problem_name);
    if (it == file.mean_ms.end()) return std::nullopt;
    return it->second;
  });
}

// Beside the paired figures, where the store holds kforge baselines of the run's problems (same
// device and torch): fast_p against eager PyTorch and against torch.compile, as upstream reports
// them from its baseline files. Per mode the figures (fast_p_json's shape) and how many correct
// candidates had no baseline; modes with no baseline for any correct candidate are left out.
struct BaselineView {
  std::string mode;
  nlohmann::json fast_p;
  size_t without = 0;
};
std::vector<BaselineView> stored_baseline_views(Store& store, const std::vector<EvaluationRecord>& records) {
  std::vector<BaselineView> views;
  size_t correct = 0;
  for (const auto& r : records) correct += r.verdict == Verdict::correct && r.cand_ms ? 1 : 0;
  for (const char* mode : {"eager", "compile"}) {
    auto copy = records;
    const auto missing = use_stored_baseline(store, mode, copy);
    if (correct == 0 || missing.size() == correct) continue;
    views.push_back({mode, report::fast_p_json(copy), missing.size()});
  }
  return views;
}

void print_baseline_views(std::ostream& out, const std::vector<BaselineView>& views) {
  if (views.empty()) return;
  out << "\nagainst stored baselines (kforge baseline, same device and torch; speedup = the baseline's median over "
         "the candidate's):\n";
  std::string header = fmt::format("{:<8}", "level");
  for (const auto& v : views) header += fmt::format("  {:>14} {:>15}", v.mode + " fast_1", v.mode + " geomean");
  out << header << '\n';
  std::vector<std::string> levels;  // the levels in order, then "all", as the fast_p table has them
  for (const auto& [level, g] : views.front().fast_p.items())
    if (level != "all") levels.push_back(level);
  levels.push_back("all");
  for (const auto& level : levels) {
    if (!views.front().fast_p.contains(level)) continue;
    std::string line = fmt::format("{:<8}", level);
    for (const auto& v : views) {
      const auto& f = v.fast_p.at(level);
      line += fmt::format("  {:>13.1f}% {:>15}", 100 * f.at("fast_1").get<double>(),
                          f.at("geomean_speedup").is_null() ? "-" : fmt::format("{:.3f}x", f.at("geomean_speedup").get<double>()));
    }
    out << line << '\n';
  }
  for (const auto& v : views)
    if (v.without > 0)
      out << fmt::format("{} correct candidate(s) have no stored {} baseline and count as not fast there\n", v.without, v.mode);
}

int run_report(const ReportOptions& o, const GlobalOptions& global) {
  require_database(global.db);
  Store store(global.db);
  if (o.list_runs) {
    print_runs(std::cout, store.runs());
    return 0;
  }
  if (!o.html.empty()) check_html_target(o.html);
  auto [run, records] = read_stored_run(store, global.db, o.run);
  std::vector<std::string> missing;
  // What the speedups are against, when not the reference timed beside each candidate.
  std::string against;
  if (!o.baseline.empty()) {
    missing = use_stored_baseline(store, o.baseline, records);
    against = fmt::format("the stored {} baseline of each problem (kforge baseline)", o.baseline);
  } else if (!o.baseline_file.empty()) {
    const auto file = report::read_upstream_baselines(o.baseline_file);
    missing = use_upstream_baseline_file(file, records);
    against = fmt::format("{}'s mean time of each problem (an upstream baseline file{})", o.baseline_file,
                          file.hardware.empty() ? "" : ", measured on " + file.hardware);
    if (!file.hardware.empty() && file.hardware != records.front().device_name)
      std::cerr << fmt::format("kforge: note: {} was measured on {}, the run on {}: the speedups mix two machines\n",
                               o.baseline_file, file.hardware, records.front().device_name);
  }
  // What the run was asked to judge and never evaluated: failures in its fast_p, shown as
  // load_error rows that say what happened.
  const size_t gaps = append_run_gaps(store, run, records);
  if (!o.html.empty()) {
    auto in = page_input(store, run, records, gaps);
    in.baseline = o.baseline.empty() ? o.baseline_file : o.baseline;
    in.baseline_missing = missing;
    write_file_atomically(o.html, report::html_report(in));
    std::cerr << fmt::format("kforge: wrote {} (run {})\n", o.html, run);
  }
  if (o.json) {
    nlohmann::json out = {{"run", run}, {"fast_p", report::fast_p_json(records)}};
    if (!o.baseline.empty()) out["baseline"] = {{"mode", o.baseline}, {"missing", missing}};
    if (!o.baseline_file.empty()) out["baseline"] = {{"file", o.baseline_file}, {"missing", missing}};
    if (against.empty())
      for (const auto& v : stored_baseline_views(store, records))
        out["against_stored_baselines"][v.mode] = {{"fast_p", v.fast_p}, {"without_baseline", v.without}};
    if (o.results)
      for (const auto& r : records) out["results"].push_back(report::evaluation_json(r));
    std::cout << out.dump(2) << '\n';
    return 0;
  }
  if (o.results) {
    report::print_results_table(std::cout, records, o.wide ? 0 : report::output_columns());
    std::cout << '\n';
  }
  const auto info = store.run_info(run);
  const std::string named = info && !info->name.empty() ? " (" + report::escaped(info->name) + ")" : "";
  std::cout << fmt::format("run {}{}: {} evaluations{} on {} ({})\n", run, named, records.size() - gaps,
                           gaps == 0 ? "" : fmt::format(" and {} candidate(s) never evaluated", gaps),
                           records.front().device, records.front().device_name);
  report::print_fast_p_table(std::cout, records);
  std::cout << "fast_p: share of all the run's candidates (evaluated or not) that are correct and faster than p x the "
               "reference; geomean over correct ones\n";
  if (against.empty()) {
    print_baseline_views(std::cout, stored_baseline_views(store, records));
  } else {
    std::cout << "speedups against " << against << ", not the reference timed beside the candidate\n";
    if (!missing.empty())
      std::cout << fmt::format("{} correct candidates have no such baseline time (for their device and torch, where "
                               "stored), and count as not fast: {}{}\n",
                               missing.size(), missing.front(), missing.size() > 1 ? ", ..." : "");
  }
  return 0;
}

}  // namespace

Runner add_report_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand("report", "fast_p and geometric-mean speedup of a stored run, per level; with --html "
                                                "also a self-contained HTML page of it");
  cmd->add_option("run", o->run, "The run, by id or --name [default: the latest run]");
  cmd->add_option("--run", o->run, "The same, as an option");
  auto* runs = cmd->add_flag("--runs", o->list_runs, "List the stored runs instead (as kforge runs)");
  cmd->add_flag("--results", o->results, "Also print the per-candidate results table");
  cmd->add_flag("--json", o->json, "JSON instead of tables");
  cmd->add_flag("--wide", o->wide, "The results table with every cell whole (by default a terminal's width cuts the messages, then the names)");
  cmd->add_option("--baseline", o->baseline,
                  "Speedups against a stored kforge baseline (eager, compile or max-autotune) of the same problem, "
                  "device and torch, instead of the reference timed beside the candidate")
      ->check(CLI::IsMember({"eager", "compile", "max-autotune"}));
  cmd->add_option("--baseline-file", o->baseline_file,
                  "Speedups against an upstream KernelBench baseline file's mean times (results/timing/<gpu>/"
                  "baseline_time_torch.json and friends, or kforge baseline --export's), matched by level and problem "
                  "file name")
      ->excludes("--baseline")
      ->type_name("FILE");
  cmd->add_option("--html", o->html,
                  "Also write the run as one self-contained HTML page to FILE (charts, sortable table, each "
                  "problem's best source; docs/reports.md) [default: none]")
      ->type_name("FILE")
      ->excludes(runs);
  return [o, &global] { return run_report(*o, global); };
}

}  // namespace kforge::cli
