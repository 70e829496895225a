// kforge problems list: the problems of a suite (the built-in one by default).
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "suite/problem.hpp"

namespace kforge::cli {
namespace {

struct ProblemsOptions {
  std::string suite;
  bool json = false;
};

int run_list(const ProblemsOptions& o) {
  auto dir = o.suite.empty() ? builtin_suite_dir() : std::filesystem::path(o.suite);
  SuiteLoad suite = load_suite(dir);
  if (o.json) {
    for (const auto& p : suite.problems) {
      nlohmann::json j = {{"id", p.display_name()}, {"level", p.level}, {"problem_id", p.id},
                          {"name", p.name},         {"path", p.path.string()}, {"hash", p.hash},
                          {"precision", p.default_precision()}};
      if (auto err = problem_format_error(p.source)) j["error"] = *err;
      std::cout << j.dump() << '\n';
    }
  } else {
    std::cout << fmt::format("{:<7} {:>4}  {:<48} {:<9} {}\n", "level", "id", "name", "precision", "status");
    for (const auto& p : suite.problems) {
      auto err = problem_format_error(p.source);
      std::cout << fmt::format("{:<7} {:>4}  {:<48} {:<9} {}\n", p.level, p.id, p.name,
                               p.default_precision(), err ? *err : "ok");
    }
    std::cout << fmt::format("{} problems in {}\n", suite.problems.size(), dir.string());
  }
  for (const auto& e : suite.errors) std::cerr << "kforge: " << e << '\n';
  return 0;
}

}  // namespace

Runner add_problems_command(CLI::App& app, const GlobalOptions&) {
  auto o = std::make_shared<ProblemsOptions>();
  auto* cmd = app.add_subcommand("problems", "Inspect problem suites");
  cmd->require_subcommand(1);
  auto* list = cmd->add_subcommand("list", "List the problems of a suite, with any format error");
  list->add_option("--suite", o->suite, "Suite folder in the KernelBench layout [default: built-in problems/]");
  list->add_flag("--json", o->json, "One JSON object per problem per line");
  return [o] { return run_list(*o); };
}

}  // namespace kforge::cli
