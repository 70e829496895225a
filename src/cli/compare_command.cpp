// kforge compare: two stored runs side by side, problem by problem.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/stored_run.hpp"
#include "report/run_comparison.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct CompareOptions {
  std::string before, after;
  bool json = false;
};

// A run as the table names it: its --name, else its id.
std::string label_of(Store& store, int64_t run) {
  auto info = store.run_info(run);
  return info && !info->name.empty() ? info->name : std::to_string(run);
}

int run_compare(const CompareOptions& o, const GlobalOptions& global) {
  require_database(global.db);
  Store store(global.db);
  auto [before, a] = read_stored_run(store, global.db, o.before);
  auto [after, b] = read_stored_run(store, global.db, o.after);
  append_run_gaps(store, before, a);
  append_run_gaps(store, after, b);
  const auto comparison = report::compare_runs(a, b);
  if (o.json) {
    auto j = report::comparison_json(comparison);
    j["before_run"] = before;
    j["after_run"] = after;
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  if (a.front().device_name != b.front().device_name)
    std::cout << fmt::format("note: the runs are on different devices ({} and {}): each speedup is against the "
                             "reference timed beside it, on its own device\n",
                             a.front().device_name, b.front().device_name);
  report::print_comparison(std::cout, comparison, label_of(store, before), label_of(store, after));
  return 0;
}

}  // namespace

Runner add_compare_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare", "Two stored runs problem by problem: each run's best candidate, verdict "
                                            "changes, and the speedup ratio with its interval");
  cmd->add_option("before", o->before, "The first run, by id or --name")->required();
  cmd->add_option("after", o->after, "The second run, by id or --name")->required();
  cmd->add_flag("--json", o->json, "JSON instead of the table");
  return [o, &global] { return run_compare(*o, global); };
}

}  // namespace kforge::cli
