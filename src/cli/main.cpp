// kforge: evaluates GPU (and CPU) kernel candidates against PyTorch problems in the KernelBench
// format, stores every result in SQLite and reports fast_p. docs/cli.md describes every command.
#include <sys/prctl.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "common/errors.hpp"

namespace {

constexpr const char* kVersion = "0.1.0";

}  // namespace

int main(int argc, char** argv) {
  // A worker that dies mid-write must not take kforge down with SIGPIPE: writes report EPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  // No process of this user may read kforge's memory or trace it (/proc/<pid>/mem, ptrace): the
  // store's contents and the providers' keys pass through it. Candidates run in processes of their own.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  // Workers and prebuild processes build load_inline extensions by calling this binary back
  // (python/kforge_inline.py). Set before any thread starts: children copy the environment.
  {
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) ::setenv("KFORGE_BINARY", self.c_str(), 1);
  }

  kforge::cli::GlobalOptions global;
  // As a user reads it: the program by its name, not the folder it was run from (a report shows it).
  for (int i = 0; i < argc; ++i) {
    std::string word = argv[i];
    if (i == 0) word = word.substr(word.find_last_of('/') + 1);
    global.command_line += (i ? " " : "") + word;
  }
  if (const char* env = std::getenv("KFORGE_DB"); env && *env) global.db = env;

  CLI::App app{"kforge: generate, verify and benchmark GPU kernels (KernelBench format)", "kforge"};
  app.set_version_flag("--version", kVersion);
  app.option_defaults()->always_capture_default();
  app.require_subcommand(1);
  app.fallthrough();
  app.add_option("--db", global.db, "SQLite file that stores every result [env: KFORGE_DB]");

  std::map<CLI::App*, kforge::cli::Runner> runners;
  auto add = [&](auto adder) {
    auto before = app.get_subcommands({}).size();
    auto runner = adder(app, global);
    runners[app.get_subcommands({}).at(before)] = std::move(runner);
  };
  add(kforge::cli::add_eval_command);
  add(kforge::cli::add_build_command);
  add(kforge::cli::add_profile_command);
  add(kforge::cli::add_build_inline_command);
  add(kforge::cli::add_problems_command);
  add(kforge::cli::add_baseline_command);
  add(kforge::cli::add_serve_command);
  add(kforge::cli::add_prompt_command);
  add(kforge::cli::add_generate_command);
  add(kforge::cli::add_run_command);
#if KFORGE_WITH_LLM
  add(kforge::cli::add_agent_command);
#endif
  add(kforge::cli::add_report_command);
  add(kforge::cli::add_runs_command);
  add(kforge::cli::add_compare_command);
  add(kforge::cli::add_show_command);
  add(kforge::cli::add_merge_command);
  add(kforge::cli::add_slurm_command);
  add(kforge::cli::add_export_command);

  // `kforge slurm submit [options] -- COMMAND...`: COMMAND is set aside before CLI11 parses, so
  // that its words (its subcommand, its options) are never read as kforge's own.
  int parsed_argc = argc;
  {
    int slurm = -1, submit = -1;
    for (int i = 1; i < argc; ++i) {
      const std::string word = argv[i];
      if (word == "--") {
        if (slurm > 0 && submit > slurm) {
          global.study_command.assign(argv + i + 1, argv + argc);
          parsed_argc = i;
        }
        break;
      }
      if (word == "slurm" && slurm < 0) slurm = i;
      if (word == "submit" && slurm > 0 && submit < 0) submit = i;
    }
  }
  try {
    app.parse(parsed_argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "kforge: " << e.what() << "\nRun 'kforge --help' (or 'kforge <command> --help') for usage.\n";
    return 2;
  }

  try {
    for (auto* sub : app.get_subcommands())
      if (auto it = runners.find(sub); it != runners.end()) return it->second();
    return 2;
  } catch (const kforge::UsageError& e) {
    std::cerr << "kforge: " << e.what() << "\nRun 'kforge --help' (or 'kforge <command> --help') for usage.\n";
    return 2;
  } catch (const kforge::Error& e) {
    std::cerr << "kforge: " << e.what() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "kforge: internal error: " << e.what() << '\n';
    return 1;
  }
}
