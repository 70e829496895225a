// kforge report: a stored run's results and its fast_p table.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/stored_run.hpp"
#include "common/errors.hpp"
#include "report/results_table.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct ReportOptions {
  int64_t run = 0;  // 0: the latest run
  bool list_runs = false;
  bool json = false;
  bool results = false;
};

int run_report(const ReportOptions& o, const GlobalOptions& global) {
  require_database(global.db);
  Store store(global.db);
  if (o.list_runs) {
    for (const auto& r : store.runs())
      std::cout << fmt::format("{:>5}  {}  {:<5} {:>4} evaluations  {}\n", r.id, r.started_at, r.device,
                               r.evaluations, r.command);
    return 0;
  }
  auto [run, records] = read_stored_run(store, global.db, o.run);
  if (o.json) {
    nlohmann::json out = {{"run", run}, {"fast_p", report::fast_p_json(records)}};
    if (o.results)
      for (const auto& r : records) out["results"].push_back(report::evaluation_json(r));
    std::cout << out.dump(2) << '\n';
    return 0;
  }
  if (o.results) {
    report::print_results_table(std::cout, records);
    std::cout << '\n';
  }
  std::cout << fmt::format("run {}: {} evaluations on {} ({})\n", run, records.size(), records.front().device,
                           records.front().device_name);
  report::print_fast_p_table(std::cout, records);
  std::cout << "fast_p: share of all evaluated candidates that are correct and faster than p x the reference; "
               "geomean over correct ones\n";
  return 0;
}

}  // namespace

Runner add_report_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand("report", "fast_p and geometric-mean speedup of a stored run, per level");
  cmd->add_option("--run", o->run, "Run id [default: 0, the latest run]");
  cmd->add_flag("--runs", o->list_runs, "List the stored runs instead");
  cmd->add_flag("--results", o->results, "Also print the per-candidate results table");
  cmd->add_flag("--json", o->json, "JSON instead of tables");
  return [o, &global] { return run_report(*o, global); };
}

}  // namespace kforge::cli
