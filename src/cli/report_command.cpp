// kforge report: a stored run's results and its fast_p table.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/stored_run.hpp"
#include "common/errors.hpp"
#include "report/formatting.hpp"
#include "report/results_table.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct ReportOptions {
  std::string run;  // id or name; empty: the latest run
  bool list_runs = false;
  bool json = false;
  bool results = false;
  std::string baseline;  // empty: the live reference; else a stored kforge baseline mode
};

// Speedups against a stored baseline (kforge baseline) instead of the reference timed beside the
// candidate: the baseline's median over the candidate's median, as upstream computes them from
// its baseline files. The baseline must be of the same problem file, device and torch version;
// a correct candidate without one keeps no speedup (it counts as not fast) and is listed.
std::vector<std::string> use_stored_baseline(Store& store, const std::string& mode,
                                             std::vector<EvaluationRecord>& records) {
  std::vector<std::string> missing;
  for (auto& r : records) {
    r.speedup_ci.reset();  // the interval belongs to the paired comparison, not to this ratio
    if (r.verdict != Verdict::correct || !r.cand_ms || *r.cand_ms <= 0) {
      r.speedup.reset();
      continue;
    }
    // kforge baseline names a CPU "cpu" (its hardware field, as upstream's files do).
    const std::string device = r.device == "cpu" ? "cpu" : r.device_name;
    auto b = store.find_baseline(r.problem_hash, mode, device, r.torch_version);
    if (b && b->median_ms && !b->error) {
      r.speedup = *b->median_ms / *r.cand_ms;
      r.ref_ms = b->median_ms;
    } else {
      r.speedup.reset();
      missing.push_back(r.problem_name);
    }
  }
  return missing;
}

int run_report(const ReportOptions& o, const GlobalOptions& global) {
  require_database(global.db);
  Store store(global.db);
  if (o.list_runs) {
    print_runs(std::cout, store.runs());
    return 0;
  }
  auto [run, records] = read_stored_run(store, global.db, resolve_run(store, global.db, o.run));
  std::vector<std::string> missing;
  if (!o.baseline.empty()) missing = use_stored_baseline(store, o.baseline, records);
  // What the run was asked to judge and never evaluated: failures in its fast_p, shown as
  // load_error rows that say what happened.
  const size_t gaps = append_run_gaps(store, run, records);
  if (o.json) {
    nlohmann::json out = {{"run", run}, {"fast_p", report::fast_p_json(records)}};
    if (!o.baseline.empty()) out["baseline"] = {{"mode", o.baseline}, {"missing", missing}};
    if (o.results)
      for (const auto& r : records) out["results"].push_back(report::evaluation_json(r));
    std::cout << out.dump(2) << '\n';
    return 0;
  }
  if (o.results) {
    report::print_results_table(std::cout, records);
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
  if (!o.baseline.empty()) {
    std::cout << fmt::format("speedups against the stored {} baseline of each problem (kforge baseline), not the "
                             "reference timed beside the candidate\n",
                             o.baseline);
    if (!missing.empty())
      std::cout << fmt::format("{} correct candidates have no stored {} baseline for their device and torch, and "
                               "count as not fast: {}{}\n",
                               missing.size(), o.baseline, missing.front(), missing.size() > 1 ? ", ..." : "");
  }
  return 0;
}

}  // namespace

Runner add_report_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand("report", "fast_p and geometric-mean speedup of a stored run, per level");
  cmd->add_option("run", o->run, "The run, by id or --name [default: the latest run]");
  cmd->add_option("--run", o->run, "The same, as an option");
  cmd->add_flag("--runs", o->list_runs, "List the stored runs instead (as kforge runs)");
  cmd->add_flag("--results", o->results, "Also print the per-candidate results table");
  cmd->add_flag("--json", o->json, "JSON instead of tables");
  cmd->add_option("--baseline", o->baseline,
                  "Speedups against a stored kforge baseline (eager, compile or max-autotune) of the same problem, "
                  "device and torch, instead of the reference timed beside the candidate")
      ->check(CLI::IsMember({"eager", "compile", "max-autotune"}));
  return [o, &global] { return run_report(*o, global); };
}

}  // namespace kforge::cli
