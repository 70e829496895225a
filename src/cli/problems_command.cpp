// kforge problems list: the problems of a suite (the built-in one by default).
// kforge problems lint: whether each is a sound benchmark (python/kforge_lint.py, run with the
// worker's Python: it builds and calls the models).
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/problem_tools.hpp"
#include "cli/problems_info.hpp"
#include "common/errors.hpp"
#include "suite/problem.hpp"

namespace kforge::cli {
namespace {

struct ProblemsOptions {
  std::string suite;
  bool json = false;
};

struct LintOptions {
  std::string suite;
  std::vector<std::string> problems;  // ids or files; none: the whole suite
  std::string device = "auto";
  bool static_only = false;
  bool json = false;
};

int run_list(const ProblemsOptions& o) {
  auto dir = o.suite.empty() ? builtin_suite_dir() : std::filesystem::path(o.suite);
  SuiteLoad suite = load_suite(dir);
  if (o.json) {
    for (const auto& p : suite.problems) {
      nlohmann::json j = {{"id", p.display_name()}, {"level", p.level}, {"problem_id", p.id},
                          {"name", p.name},         {"path", p.path.string()}, {"hash", p.hash},
                          {"precision", p.default_precision()}, {"training", p.training},
                          {"world_size", p.world_size}};
      if (auto err = problem_format_error(p.source)) j["error"] = *err;
      std::cout << j.dump() << '\n';
    }
  } else {
    std::cout << fmt::format("{:<7} {:>4}  {:<48} {:<9} {}\n", "level", "id", "name", "precision", "status");
    for (const auto& p : suite.problems) {
      auto err = problem_format_error(p.source);
      // What the line's status says beyond "ok": a training step, a multi-rank problem.
      std::string kind = p.training ? " (training step)" : "";
      if (p.world_size > 1) kind += " (" + std::to_string(p.world_size) + " ranks)";
      std::cout << fmt::format("{:<7} {:>4}  {:<48} {:<9} {}\n", p.level, p.id, p.name,
                               p.default_precision(), err ? *err : "ok" + kind);
    }
    std::cout << fmt::format("{} problems in {}\n", suite.problems.size(), dir.string());
  }
  for (const auto& e : suite.errors) std::cerr << "kforge: " << e << '\n';
  return 0;
}

int run_lint(const LintOptions& o) {
  const std::string device = tool_device(o.device);
  auto [dir, suite, chosen] = choose_problems(o.suite, o.problems);

  std::vector<std::string> args{"--device", device};
  if (o.static_only) args.push_back("--static-only");
  for (const auto& p : chosen) args.push_back(std::to_string(p.level) + ":" + p.path.string());
  const auto timeout = std::chrono::seconds(60 + (o.static_only ? 1 : 60) * static_cast<long>(chosen.size()));
  size_t flagged = 0;
  if (!o.json)
    std::cout << fmt::format("{:<52} {}\n", "problem", "lint (" + device + (o.static_only ? ", static rules" : "") + ")")
              << std::flush;
  // Each problem's line is shown as soon as the tool gives it (the whole suite on a GPU takes
  // minutes); problems it gave nothing for are listed after it ends.
  std::set<std::string> shown;
  auto show = [&](const Problem& p, nlohmann::json j) {
    shown.insert(p.path.string());
    j["id"] = p.display_name();
    const auto& findings = j["findings"];
    flagged += !findings.empty();
    if (o.json) {
      std::cout << j.dump() << std::endl;
      return;
    }
    std::string said;
    for (const auto& f : findings)
      said += (said.empty() ? "" : "; ") + f.value("rule", std::string()) + ": " + f.value("message", std::string());
    // The host's share: its time queueing a call over the call's GPU time (rule host-bound past 0.9).
    if (j.contains("eager_ms") && j["eager_ms"].is_number())
      said = fmt::format("{:.2f} ms, peak {:.1f} GiB", j["eager_ms"].get<double>(), j["peak_gib"].get<double>()) +
             (j.contains("host_share") && j["host_share"].is_number()
                  ? fmt::format(", host {:.2f}", j["host_share"].get<double>())
                  : std::string()) +
             (said.empty() ? "" : "; " + said);
    // How it was linted, where not as asked (a multi-rank problem on too few GPUs).
    if (j.contains("note") && j["note"].is_string()) said += (said.empty() ? "" : "; ") + j["note"].get<std::string>();
    std::cout << fmt::format("{:<52} {}", p.display_name(),
                             findings.empty() ? (said.empty() ? "ok" : "ok (" + said + ")") : said)
              << std::endl;
  };
  std::string failure;
  run_problem_tool("kforge_lint.py", args, timeout, failure, [&](const nlohmann::json& j) {
    for (const auto& p : chosen)
      if (p.path.string() == j.at("problem").get<std::string>() && !shown.count(p.path.string())) show(p, j);
  });
  for (const auto& p : chosen)
    if (!shown.count(p.path.string()))
      show(p, {{"problem", p.path.string()},
               {"findings", {{{"rule", "load"}, {"message", "the lint process gave no result (" + failure + ")"}}}}});
  if (!o.json) std::cout << fmt::format("{} of {} problems flagged\n", flagged, chosen.size());
  for (const auto& e : suite.errors) std::cerr << "kforge: " << e << '\n';
  return flagged ? 1 : 0;
}

}  // namespace

Runner add_problems_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<ProblemsOptions>();
  auto* cmd = app.add_subcommand("problems", "Inspect problem suites");
  cmd->require_subcommand(1);
  auto* list = cmd->add_subcommand("list", "List the problems of a suite, with any format error");
  list->add_option("--suite", o->suite, "Suite folder in the KernelBench layout [default: built-in problems/]");
  list->add_flag("--json", o->json, "One JSON object per problem per line");
  auto l = std::make_shared<LintOptions>();
  auto* lint = cmd->add_subcommand(
      "lint", "Check that problems are sound benchmarks: static rules, then a run at kforge's sizes (degenerate, "
              "non-deterministic or random outputs; on a GPU the eager time and peak memory). Exit 1 if any is flagged");
  lint->add_option("problems", l->problems, "Problem ids (level1/19) or files [default: the whole suite]");
  lint->add_option("--suite", l->suite, "Suite folder in the KernelBench layout [default: built-in problems/]");
  lint->add_option("--device", l->device, "auto (cuda if a GPU is present), cpu (at each problem's cpu_sizes) or cuda");
  lint->add_flag("--static-only", l->static_only, "Only the rules that read the file (no model is built)");
  lint->add_flag("--json", l->json, "One JSON object per problem per line");
  auto i = std::make_shared<ProblemsInfoOptions>();
  auto* info = cmd->add_subcommand(
      "info", "What each problem computes: FLOPs, input, parameter and output bytes, output shapes (derived on "
              "PyTorch's meta device, stored per torch version and precision)");
  info->add_option("problems", i->problems, "Problem ids (level1/19) or files [default: the whole suite]");
  info->add_option("--suite", i->suite, "Suite folder in the KernelBench layout [default: built-in problems/]");
  info->add_flag("--refresh", i->refresh, "Derive (and with --sol measure the peak rates) again even when the store holds them");
  info->add_flag("--sol", i->sol,
                 "Also each problem's speed-of-light time on the device: max(FLOPs / matmul rate at its precision, "
                 "minimum bytes / copy rate), the rates measured once and stored");
  info->add_option("--device", i->device, "With --sol: auto (cuda if a GPU is present), cpu or cuda");
  info->add_flag("--json", i->json, "One JSON object per problem per line");
  return [o, l, lint, i, info, &global] {
    if (lint->parsed()) return run_lint(*l);
    if (info->parsed()) return run_problems_info(*i, global);
    return run_list(*o);
  };
}

}  // namespace kforge::cli
