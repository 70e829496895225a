// kforge baseline: the reference's own time per problem, eager and under torch.compile
// (python/kforge_baseline.py), stored per device and torch version, and exported in upstream's
// baseline JSON shape.
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "common/files.hpp"
#include "report/upstream_baselines.hpp"
#include "cli/problem_tools.hpp"
#include "common/errors.hpp"
#include "cli/shard_choice.hpp"
#include "planner/shards.hpp"
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
  bool force = false;
  bool stored_only = false;
  std::string shard;  // "I/N": only this shard of the problems (planner/shards.hpp); empty: all
};

std::optional<double> number(const nlohmann::json& j, const char* key) {
  if (j.contains(key) && j[key].is_number()) return j[key].get<double>();
  return std::nullopt;
}

// Upstream's shape and file names, one file per mode (report/upstream_baselines.hpp): {"level1": {"19_ReLU.py": {mean, std, min, max,
// num_trials, hardware, device}}} in ms, from the store: what this run measured and what an
// earlier one had.
void export_upstream(const std::string& dir, Store& store, const std::vector<Problem>& problems,
                     const std::vector<std::string>& modes, const std::string& device, const ToolIdentity& id) {
  std::filesystem::create_directories(dir);
  for (const auto& mode : modes) {
    nlohmann::json file = nlohmann::json::object();
    for (const auto& p : problems) {
      auto b = store.find_baseline(p.hash, mode, id.hardware, id.torch);
      if (!b || b->error || !b->mean_ms) continue;
      file["level" + std::to_string(p.level)][p.path.filename().string()] = {
          {"mean", *b->mean_ms}, {"std", b->std_ms.value_or(0)}, {"min", b->min_ms.value_or(0)},
          {"max", b->max_ms.value_or(0)}, {"num_trials", b->num_trials}, {"hardware", b->device_name},
          {"device", device}};
    }
    // Upstream's own file names, so its scripts and kforge report --baseline-file read them as they are.
    write_file_atomically(std::filesystem::path(dir) / report::upstream_baseline_file(mode), file.dump(2) + "\n");
  }
}

void print_header(bool json) {
  if (!json)
    std::cout << fmt::format("{:<48} {:<13} {:>10} {:>10} {:>9}  {}", "problem", "mode", "median ms", "mean ms",
                             "std ms", "device")
              << std::endl;
}

void print_baseline(const Problem& problem, const Baseline& b, bool stored, bool json, const nlohmann::json& line) {
  if (json) {
    nlohmann::json out = line;
    out["id"] = problem.display_name();
    if (stored) out["stored"] = true;
    std::cout << out.dump() << std::endl;
  } else if (b.error) {
    std::cout << fmt::format("{:<48} {:<13} {}", problem.display_name(), b.mode, "failed: " + b.error->substr(0, 90))
              << std::endl;
  } else {
    std::cout << fmt::format("{:<48} {:<13} {:>10.4f} {:>10.4f} {:>9.4f}  {}{}", problem.display_name(), b.mode,
                             b.median_ms.value_or(0), b.mean_ms.value_or(0), b.std_ms.value_or(0), b.device_name,
                             stored ? "  (stored)" : "")
              << std::endl;
  }
}

int run_baseline(const BaselineOptions& o, const GlobalOptions& global) {
  const std::string device = tool_device(o.device);
  auto [dir, suite, chosen] = choose_problems(o.suite, o.problems);
  leave_out_multi_rank(chosen, "measure baselines of", "measured");
  const ToolIdentity id = tool_identity(device);
  Store store(global.db);
  // Whole problems, alike: the times eval --shard weighs by are the ones this command measures,
  // so weighing by them would split differently once a shard had stored its own.
  if (!o.shard.empty()) keep_problem_shard(chosen, o.shard, [](const Problem&) { return 1.0; });
  print_header(o.json);

  // Resumable: a problem and mode already measured on this device with this torch is shown from
  // the store, not measured again (--force measures it again).
  size_t measured = 0, failed = 0, expected = 0, missing = 0;
  std::string failure;
  for (const auto& mode : o.modes) {
    std::vector<const Problem*> todo;
    for (const auto& p : chosen) {
      auto b = o.force ? std::nullopt : store.find_baseline(p.hash, mode, id.hardware, id.torch);
      if (!b || b->error) {
        todo.push_back(&p);
        continue;
      }
      auto figure = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
      nlohmann::json line = {{"problem", p.path.string()},     {"mode", mode},
                             {"median", figure(b->median_ms)}, {"mean", figure(b->mean_ms)},
                             {"std", figure(b->std_ms)},       {"min", figure(b->min_ms)},
                             {"max", figure(b->max_ms)},       {"num_trials", b->num_trials},
                             {"hardware", b->device_name},     {"device", device},
                             {"torch", b->torch_version},      {"error", nullptr}};
      print_baseline(p, *b, true, o.json, line);
    }
    if (todo.empty()) continue;
    if (o.stored_only) {
      missing += todo.size();
      continue;
    }
    expected += todo.size();
    std::vector<std::string> args{"--device", device, "--trials", std::to_string(o.trials), "--modes", mode};
    for (const auto* p : todo) args.push_back(p->path.string());
    const auto timeout = std::chrono::seconds(120 + 300 * static_cast<long>(todo.size()));
    // Each measurement is stored and shown as soon as the tool prints it: a run stopped part-way
    // (a deadline, Ctrl-C) keeps what it measured, and the next run goes on from there.
    std::string this_failure;
    run_problem_tool("kforge_baseline.py", args, timeout, this_failure, [&](const nlohmann::json& j) {
      const Problem* problem = nullptr;
      for (const auto* p : todo)
        if (p->path.string() == j.at("problem").get<std::string>()) problem = p;
      if (!problem) return;
      Baseline b;
      b.problem_hash = problem->hash;
      b.mode = j.value("mode", "");
      b.device_name = j.value("hardware", id.hardware);
      b.torch_version = j.value("torch", id.torch);  // the measuring process's own torch
      b.mean_ms = number(j, "mean");
      b.std_ms = number(j, "std");
      b.min_ms = number(j, "min");
      b.max_ms = number(j, "max");
      b.median_ms = number(j, "median");
      b.num_trials = j.value("num_trials", 0);
      if (j.contains("error") && j["error"].is_string()) b.error = j["error"].get<std::string>();
      store.put_problem(*problem);
      store.put_baseline(b);
      ++measured;
      failed += b.error.has_value();
      print_baseline(*problem, b, false, o.json, j);
    });
    if (!this_failure.empty()) failure = this_failure;
  }
  if (!o.export_dir.empty()) export_upstream(o.export_dir, store, chosen, o.modes, device, id);
  if (!o.json)
    std::cout << fmt::format("{} measured and stored in {}{}{}{}\n", measured, global.db,
                             failed ? fmt::format(", {} failed", failed) : std::string(),
                             chosen.size() * o.modes.size() > expected + missing
                                 ? fmt::format(", {} already stored", chosen.size() * o.modes.size() - expected - missing)
                                 : std::string(),
                             missing ? fmt::format(", {} not measured yet (--stored-only)", missing) : std::string());
  if (measured < expected)
    throw Error(fmt::format("the baseline process stopped early ({}): {} of {} measured; what it measured is stored, "
                            "and running the same command again goes on from there",
                            failure.empty() ? "no result" : failure, measured, expected));
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
  cmd->add_option("--shard", o->shard, "I/N: only shard I (from 0) of N of the problems, as many in each, the same split on every node")
      ->check(planner::shard_error);
  cmd->add_option("--export", o->export_dir, "Folder to write the baselines to in upstream's shape and file names (baseline_time_torch.json, "
                  "baseline_time_torch_compile_inductor_default.json, ...)");
  cmd->add_flag("--json", o->json, "One JSON object per problem and mode per line");
  cmd->add_flag("--force", o->force,
                "Measure again what the store already holds for this device and torch (by default it is shown, not "
                "re-measured, so a stopped run goes on where it stopped)");
  cmd->add_flag("--stored-only", o->stored_only,
                "Measure nothing: show and export what the store holds for this device and torch (with --export, the "
                "files of a run that was stopped part-way)")
      ->excludes("--force");
  return [o, &global] { return run_baseline(*o, global); };
}

}  // namespace kforge::cli
