// kforge baseline: the reference's own time per problem, eager and under torch.compile
// (python/kforge_baseline.py), stored per device and torch version, and exported in upstream's
// baseline JSON shape.
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/problem_tools.hpp"
#include "common/errors.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct BaselineOptions {
  std::vector<std::string> problems;
  std::string suite;
  std::string device = "auto";
  std::vector<std::string> modes{"eager", "compile", "max-autotune"};
  int trials = 100;
  std::string export_dir;
  bool json = false;
};

std::optional<double> number(const nlohmann::json& j, const char* key) {
  if (j.contains(key) && j[key].is_number()) return j[key].get<double>();
  return std::nullopt;
}

// Upstream's shape, one file per mode: {"level1": {"19_ReLU.py": {mean, std, min, max,
// num_trials, hardware, device}}} in ms.
void export_upstream(const std::string& dir, const std::vector<Problem>& problems,
                     const std::vector<nlohmann::json>& lines, const std::vector<std::string>& modes) {
  std::filesystem::create_directories(dir);
  for (const auto& mode : modes) {
    nlohmann::json file = nlohmann::json::object();
    for (const auto& j : lines) {
      if (j.value("mode", "") != mode || !number(j, "mean")) continue;
      for (const auto& p : problems)
        if (p.path.string() == j.at("problem").get<std::string>())
          file["level" + std::to_string(p.level)][p.path.filename().string()] = {
              {"mean", j["mean"]}, {"std", j["std"]},   {"min", j["min"]},          {"max", j["max"]},
              {"num_trials", j["num_trials"]}, {"hardware", j["hardware"]}, {"device", j["device"]}};
    }
    std::ofstream(std::filesystem::path(dir) / ("baseline_" + mode + ".json")) << file.dump(2) << '\n';
  }
}

int run_baseline(const BaselineOptions& o, const GlobalOptions& global) {
  const std::string device = tool_device(o.device);
  auto [dir, suite, chosen] = choose_problems(o.suite, o.problems);

  std::string modes;
  for (const auto& m : o.modes) modes += (modes.empty() ? "" : ",") + m;
  std::vector<std::string> args{"--device", device, "--trials", std::to_string(o.trials), "--modes", modes};
  for (const auto& p : chosen) args.push_back(p.path.string());
  const auto timeout = std::chrono::seconds(120 + 300 * static_cast<long>(chosen.size() * o.modes.size()));

  // Each measurement is stored and shown as soon as the tool prints it: a run stopped part-way
  // (a deadline, Ctrl-C) keeps what it measured.
  Store store(global.db);
  if (!o.json)
    std::cout << fmt::format("{:<48} {:<13} {:>10} {:>10} {:>9}  {}\n", "problem", "mode", "median ms", "mean ms",
                             "std ms", "device")
              << std::flush;
  size_t failed = 0;
  auto take = [&](const nlohmann::json& j) {
    const Problem* problem = nullptr;
    for (const auto& p : chosen)
      if (p.path.string() == j.at("problem").get<std::string>()) problem = &p;
    if (!problem) return;
    Baseline b;
    b.problem_hash = problem->hash;
    b.mode = j.value("mode", "");
    b.device_name = j.value("hardware", device);
    b.torch_version = j.value("torch", std::string());  // the measuring process's own torch
    b.mean_ms = number(j, "mean");
    b.std_ms = number(j, "std");
    b.min_ms = number(j, "min");
    b.max_ms = number(j, "max");
    b.median_ms = number(j, "median");
    b.num_trials = j.value("num_trials", 0);
    if (j.contains("error") && j["error"].is_string()) b.error = j["error"].get<std::string>();
    store.put_problem(*problem);
    store.put_baseline(b);
    failed += b.error.has_value();
    if (o.json) {
      nlohmann::json out = j;
      out["id"] = problem->display_name();
      std::cout << out.dump() << std::endl;
    } else if (b.error) {
      std::cout << fmt::format("{:<48} {:<13} {}", problem->display_name(), b.mode, "failed: " + b.error->substr(0, 90))
                << std::endl;
    } else {
      std::cout << fmt::format("{:<48} {:<13} {:>10.4f} {:>10.4f} {:>9.4f}  {}", problem->display_name(), b.mode,
                               *b.median_ms, *b.mean_ms, *b.std_ms, b.device_name)
                << std::endl;
    }
  };
  std::string failure;
  auto lines = run_problem_tool("kforge_baseline.py", args, timeout, failure, take);
  if (lines.empty()) throw Error("the baseline process gave no result (" + failure + ")");
  if (!o.export_dir.empty()) export_upstream(o.export_dir, chosen, lines, o.modes);
  if (!o.json)
    std::cout << fmt::format("{} measurements stored in {}{}\n", lines.size(), global.db,
                             failed ? fmt::format(", {} failed", failed) : std::string());
  if (lines.size() < chosen.size() * o.modes.size())
    throw Error("the baseline process stopped early (" + failure + "); what it measured is stored");
  return failed ? 1 : 0;
}

}  // namespace

Runner add_baseline_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<BaselineOptions>();
  auto* cmd = app.add_subcommand(
      "baseline", "Time each problem's reference, eager and under torch.compile, as upstream does (same inputs every "
                  "call, cold L2, CUDA events); stored per device and torch version, exported in upstream's JSON shape");
  cmd->add_option("problems", o->problems, "Problem ids (level1/19) or files [default: the whole suite]");
  cmd->add_option("--suite", o->suite, "Suite folder in the KernelBench layout [default: built-in problems/]");
  cmd->add_option("--device", o->device, "auto (cuda if a GPU is present), cpu (at each problem's cpu_sizes) or cuda");
  cmd->add_option("--modes", o->modes, "eager, compile (torch.compile's default), max-autotune (mode=max-autotune-no-cudagraphs)")
      ->delimiter(',')
      ->check(CLI::IsMember({"eager", "compile", "max-autotune"}));
  cmd->add_option("--trials", o->trials, "Timed calls per problem and mode, after 3 warm-ups")->check(CLI::Range(1, 100000));
  cmd->add_option("--export", o->export_dir, "Folder to write baseline_<mode>.json in upstream's shape");
  cmd->add_flag("--json", o->json, "One JSON object per problem and mode per line");
  return [o, &global] { return run_baseline(*o, global); };
}

}  // namespace kforge::cli
