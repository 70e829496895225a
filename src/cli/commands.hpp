#pragma once
// The subcommands of the kforge CLI. Each registers its flags on the app and returns the function
// that runs it; the function returns the process exit status (0 ran, 1 failed; usage errors are
// thrown as kforge::UsageError and exit 2).
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kforge::cli {

struct GlobalOptions {
  std::string db = "kforge.db";
  std::string command_line;  // as typed, stored with each run
  // What follows `--` after `kforge slurm submit`: the study's own kforge command, kept from
  // CLI11, which would take its words as kforge's own arguments.
  std::vector<std::string> study_command;
};

using Runner = std::function<int()>;

Runner add_eval_command(CLI::App& app, const GlobalOptions& global);
Runner add_problems_command(CLI::App& app, const GlobalOptions& global);
Runner add_report_command(CLI::App& app, const GlobalOptions& global);
Runner add_runs_command(CLI::App& app, const GlobalOptions& global);
Runner add_compare_command(CLI::App& app, const GlobalOptions& global);
Runner add_show_command(CLI::App& app, const GlobalOptions& global);
Runner add_merge_command(CLI::App& app, const GlobalOptions& global);
Runner add_slurm_command(CLI::App& app, const GlobalOptions& global);
Runner add_export_command(CLI::App& app, const GlobalOptions& global);
Runner add_build_command(CLI::App& app, const GlobalOptions& global);
Runner add_profile_command(CLI::App& app, const GlobalOptions& global);
Runner add_build_inline_command(CLI::App& app, const GlobalOptions& global);
Runner add_baseline_command(CLI::App& app, const GlobalOptions& global);
Runner add_serve_command(CLI::App& app, const GlobalOptions& global);
Runner add_prompt_command(CLI::App& app, const GlobalOptions& global);
Runner add_generate_command(CLI::App& app, const GlobalOptions& global);
Runner add_run_command(CLI::App& app, const GlobalOptions& global);
Runner add_agent_command(CLI::App& app, const GlobalOptions& global);  // with model providers only

}  // namespace kforge::cli
