// kforge export: a stored run in another tool's format.
#include <iostream>
#include <set>

#include "cli/commands.hpp"
#include "cli/stored_run.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "report/kernelbench_export.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct ExportOptions {
  std::string format;
  std::string run;  // id or name; empty: the latest run
  int level = 0;
  std::string output = "eval_results.json";
};

int run_export(const ExportOptions& o, const GlobalOptions& global) {
  require_database(global.db);
  Store store(global.db);
  auto [run, records] = read_stored_run(store, global.db, o.run);
  std::set<int> levels;
  for (const auto& r : records) levels.insert(r.level);
  int level = o.level;
  if (level == 0) {
    if (levels.size() > 1) {
      std::string list;
      for (int l : levels) list += " " + std::to_string(l);
      throw UsageError("run " + std::to_string(run) + " spans levels" + list +
                       "; upstream keeps one eval_results.json per level: choose one with --level");
    }
    level = *levels.begin();
  }
  std::erase_if(records, [&](const EvaluationRecord& r) { return r.level != level; });
  if (records.empty()) throw UsageError("run " + std::to_string(run) + " has no level " + std::to_string(level) + " evaluations");
  write_file_atomically(o.output, report::kernelbench_eval_results(records).dump(2) + "\n");
  std::cerr << "kforge: wrote " << records.size() << " results of run " << run << ", level " << level << " to "
            << o.output << '\n';
  return 0;
}

}  // namespace

Runner add_export_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<ExportOptions>();
  auto* cmd = app.add_subcommand("export", "Write a stored run in another tool's format");
  cmd->add_option("--format", o->format, "Output format")->required()->check(CLI::IsMember({"kernelbench"}));
  cmd->add_option("--run", o->run, "The run, by id or --name [default: the latest run]");
  cmd->add_option("--level", o->level, "Level to export [default: 0, the run's only level]");
  cmd->add_option("--output,-o", o->output, "File to write");
  return [o, &global] { return run_export(*o, global); };
}

}  // namespace kforge::cli
