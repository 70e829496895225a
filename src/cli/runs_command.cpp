// kforge runs: the store's runs, newest last, with their names, counts and what their model calls cost.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/stored_run.hpp"
#include "report/formatting.hpp"
#include "store/store.hpp"

namespace kforge::cli {

void print_runs(std::ostream& out, const std::vector<RunInfo>& runs) {
  out << fmt::format("{:>5}  {:<16} {:<20} {:<6} {:>6} {:>8} {:>6} {:>10}  {}\n", "run", "name", "started (UTC)",
                     "device", "evals", "correct", "never", "cost", "command");
  for (const auto& r : runs)
    out << fmt::format("{:>5}  {:<16} {:<20} {:<6} {:>6} {:>8} {:>6} {:>10}  {}\n", r.id,
                       r.name.empty() ? "-" : report::one_line(report::escaped(r.name), 16), r.started_at.substr(0, 19),
                       r.device, r.evaluations, r.correct, r.gaps, r.cost ? fmt::format("${:.4f}", r.cost->usd) : "-",
                       report::one_line(report::escaped(r.command), 60));
}

namespace {

nlohmann::json runs_json(const std::vector<RunInfo>& runs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : runs) {
    nlohmann::json j = {{"run", r.id},
                        {"name", r.name.empty() ? nlohmann::json() : nlohmann::json(r.name)},
                        {"started_at", r.started_at},
                        {"device", r.device},
                        {"command", r.command},
                        {"evaluations", r.evaluations},
                        {"correct", r.correct},
                        {"never_evaluated", r.gaps}};
    if (r.cost)
      j["cost"] = {{"calls", r.cost->calls}, {"input_tokens", r.cost->input_tokens},
                   {"output_tokens", r.cost->output_tokens}, {"usd", r.cost->usd}};
    out.push_back(j);
  }
  return out;
}

struct RunsOptions {
  bool json = false;
};

int run_runs(const RunsOptions& o, const GlobalOptions& global) {
  require_database(global.db);
  Store store(global.db);
  const auto runs = store.runs();
  if (o.json) {
    std::cout << runs_json(runs).dump(2) << '\n';
    return 0;
  }
  if (runs.empty()) {
    std::cout << global.db << ": no runs yet\n";
    return 0;
  }
  print_runs(std::cout, runs);
  std::cout << "evals: evaluations; never: candidates asked for and never evaluated (fast_p counts them as failures); "
               "cost: the model calls of its candidates\n";
  return 0;
}

}  // namespace

Runner add_runs_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<RunsOptions>();
  auto* cmd = app.add_subcommand("runs", "List the stored runs: id, name, date, device, counts and cost");
  cmd->add_flag("--json", o->json, "JSON instead of the table");
  return [o, &global] { return run_runs(*o, global); };
}

}  // namespace kforge::cli
