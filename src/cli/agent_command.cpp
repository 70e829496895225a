// kforge agent: makes kernels faster by search (src/agent/): a policy proposes attempts, models
// answer, kforge evaluates, the feedback goes into the next prompts.
//   kforge agent --model M [--model M2] (--level L | --problem P)... [--policy serial|metr|beam]
//   kforge agent --resume RUN          go on with a stopped run, with the options it was started with
//   kforge agent show RUN [PROBLEM]    the tree of attempts and the trajectory of the best
#include <algorithm>
#include <atomic>
#include <csignal>
#include <iostream>
#include <functional>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "agent/agent_run.hpp"
#include "agent/warm_workers.hpp"
#include "cli/commands.hpp"
#include "cli/model_choice.hpp"
#include "cli/problem_tools.hpp"
#include "cli/shard_choice.hpp"
#include "cli/worker_choice.hpp"
#include "common/errors.hpp"
#include "llm/model_config.hpp"
#include "planner/shards.hpp"
#include "profile/ncu_runner.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

// What a run is started with, stored (agent_runs) so --resume goes on exactly as it began.
struct AgentCommandOptions {
  std::vector<std::string> models;
  std::string planner;  // optional
  std::vector<int> levels;
  std::vector<std::string> problems;
  std::string suite;
  std::string config;
  std::string prompts;
  std::string format = "cuda";
  std::string fallback = "mixed";
  std::string policy = "serial";
  agent::PolicyOptions policy_options;
  agent::Budgets budgets;
  std::string device = "auto";
  double max_time_s = 0;
  int timeout_s = 300;
  std::string out;
  std::string name;  // the run's, optional
  std::string shard;  // "I/N": only this shard of the problems (planner/shards.hpp); empty: all
  uint64_t seed = 1;
  bool no_reverify = false;
  std::string profile = "auto";  // auto (new-best on a GPU), new-best, off
  bool profile_unconfined = false;  // the profiled candidate without the candidate sandbox
  int64_t resume = 0;
  // kforge agent show
  int64_t show_run = 0;
  std::string show_problem;
};

nlohmann::json to_json(const AgentCommandOptions& o) {
  return {{"models", o.models},       {"planner", o.planner},       {"levels", o.levels},
          {"problems", o.problems},   {"suite", o.suite},
          {"config", o.config},       {"prompts", o.prompts},
          {"format", o.format},       {"fallback", o.fallback},
          {"policy", o.policy},       {"width", o.policy_options.width},
          {"seeds", o.policy_options.seeds}, {"beam", o.policy_options.beam},
          {"debug_limit", o.policy_options.debug_limit}, {"attempts", o.budgets.attempts},
          {"budget_usd", o.budgets.usd}, {"max_wall_s", o.budgets.wall_s},
          {"budget_tokens", o.budgets.tokens}, {"problem_usd", o.budgets.problem_usd},
          {"plateau", o.budgets.plateau}, {"sol_stop", o.budgets.sol_share},
          {"device", o.device},       {"max_time_s", o.max_time_s},
          {"timeout_s", o.timeout_s}, {"out", o.out},
          {"seed", o.seed},           {"no_reverify", o.no_reverify},
          {"shard", o.shard},         {"profile", o.profile},
          {"profile_unconfined", o.profile_unconfined}};
}

AgentCommandOptions from_json(const nlohmann::json& j) {
  AgentCommandOptions o;
  o.models = j.at("models").get<std::vector<std::string>>();
  o.planner = j.value("planner", std::string());
  o.levels = j.at("levels").get<std::vector<int>>();
  o.problems = j.at("problems").get<std::vector<std::string>>();
  o.suite = j.at("suite");
  o.config = j.at("config");
  o.prompts = j.at("prompts");
  o.format = j.at("format");
  o.fallback = j.at("fallback");
  o.policy = j.at("policy");
  o.policy_options.width = j.at("width");
  o.policy_options.seeds = j.at("seeds");
  o.policy_options.beam = j.at("beam");
  o.policy_options.debug_limit = j.at("debug_limit");
  o.budgets.attempts = j.at("attempts");
  o.budgets.usd = j.at("budget_usd");
  o.budgets.wall_s = j.at("max_wall_s");
  o.budgets.tokens = j.value("budget_tokens", int64_t{0});
  o.budgets.problem_usd = j.value("problem_usd", 0.0);
  o.budgets.plateau = j.at("plateau");
  o.budgets.sol_share = j.at("sol_stop");
  o.device = j.at("device");
  o.max_time_s = j.at("max_time_s");
  o.timeout_s = j.at("timeout_s");
  o.out = j.at("out");
  o.seed = j.at("seed");
  o.no_reverify = j.at("no_reverify");
  o.shard = j.value("shard", std::string());
  o.profile = j.value("profile", std::string("auto"));
  o.profile_unconfined = j.value("profile_unconfined", false);
  return o;
}

std::atomic<bool> g_cancel{false};
void on_interrupt(int) { g_cancel = true; }

// The models of kforge.toml a run names, with their keys; kforge.toml is read once.
struct ChosenModels {
  std::vector<agent::AgentModel> coders;
  std::optional<agent::AgentModel> planner;
};

ChosenModels chosen_models(const AgentCommandOptions& o, const GlobalOptions& global) {
  std::filesystem::path file;
  const auto declared = declared_models(o.config, global.db, &file);
  auto with_key = [&](const std::string& name) {
    const llm::ModelConfig& m = declared_model(declared, name, file);
    return agent::AgentModel{m, llm::api_key(m)};
  };
  ChosenModels out;
  for (const auto& name : o.models) out.coders.push_back(with_key(name));
  if (!o.planner.empty()) out.planner = with_key(o.planner);
  return out;
}

int run_agent_command(AgentCommandOptions o, const GlobalOptions& global, const std::map<std::string, bool>& given) {
  Store store(global.db);
  int64_t run_id = 0;
  if (!o.resume && !o.name.empty() && !store.name_taken_by_another_command(o.name, global.command_line))
    if (auto same = store.find_run(o.name); same && store.agent_run_options(*same)) {
      // The same command again (a shard run again after preemption): it goes on with its run.
      std::cout << fmt::format("kforge agent: going on with run {} ('{}'), started by this same command\n", *same, o.name);
      o.resume = *same;
    }
  if (o.resume) {
    auto saved = store.agent_run_options(o.resume);
    if (!saved) throw UsageError(fmt::format("run {} is not a kforge agent run in {}", o.resume, global.db));
    AgentCommandOptions resumed = from_json(nlohmann::json::parse(*saved));
    // A resumed run may be given more room; everything else is as it began.
    if (given.at("attempts")) resumed.budgets.attempts = o.budgets.attempts;
    if (given.at("budget")) resumed.budgets.usd = o.budgets.usd;
    if (given.at("wall")) resumed.budgets.wall_s = o.budgets.wall_s;
    if (given.at("tokens")) resumed.budgets.tokens = o.budgets.tokens;
    if (given.at("problem_usd")) resumed.budgets.problem_usd = o.budgets.problem_usd;
    run_id = o.resume;
    o = resumed;
  }
  if (o.models.empty()) throw UsageError("give --model (repeatable: several models share one search)");
  auto models = chosen_models(o, global);
  auto problems = chosen_problems(o.levels, o.problems, o.suite, "nothing to search: give --level L or --problem P (each may repeat)");
  leave_out_multi_rank(problems, "evaluate candidates on", "searched");
  if (!o.shard.empty()) keep_problem_shard(problems, o.shard, expected_cost_weight(o.budgets.attempts, store));
  agent::AgentOptions a;
  a.models = std::move(models.coders);
  a.planner = std::move(models.planner);
  a.policy = o.policy;
  (void)agent::make_policy(o.policy, o.policy_options);  // an unknown name is a usage error before any call
  a.policy_options = o.policy_options;
  a.prompt.format = o.format;
  a.prompt.fallback = o.fallback;
  a.prompt.prompts_dir = o.prompts;
  a.prompt.device = store.latest_device_peaks();
  a.budgets = o.budgets;
  a.seed = o.seed;
  a.reverify = !o.no_reverify;
  a.eval.device = o.device;
  a.eval.fallback = o.fallback;
  a.eval.timeout_s = o.timeout_s;
  if (o.max_time_s > 0) {
    a.eval.timing.max_time_s = o.max_time_s;
    a.eval.timing.min_time_s = std::min(a.eval.timing.min_time_s, o.max_time_s);
  }
  const bool cuda = choose_workers(o.device).cuda;  // says now when the device asked for is not here
  if (!cuda && (o.format == "cuda" || o.format == "triton"))
    throw UsageError("--format " + o.format + " needs a GPU; on the CPU use --format cpp or kernelbench");

  if (o.profile == "new-best" || (o.profile == "auto" && cuda)) {
    if (auto ncu = profile::find_ncu()) {
      a.ncu = *ncu;
      a.profile_confined = !o.profile_unconfined;
      if (o.profile_unconfined)
        std::cerr << "kforge agent: --profile-unconfined: profiled candidates run with your user's file access (their "
                     "environment still holds no credentials)\n";
    } else {
      std::cerr << "kforge agent: Nsight Compute (ncu) is not on PATH nor named by KFORGE_NCU: attempts get no "
                   "profiler digest\n";
    }
  }

  std::vector<agent::ProblemSearch> searches;
  for (auto& p : problems) searches.push_back({p, {}, false, ""});
  const bool resuming = run_id != 0;
  if (resuming) {
    // The resumed run's nodes, by problem; a problem whose file changed since is refused.
    for (auto& n : store.agent_nodes(run_id)) {
      auto it = std::find_if(searches.begin(), searches.end(), [&](const agent::ProblemSearch& s) { return s.problem.hash == n.problem_hash; });
      if (it == searches.end())
        throw Error(fmt::format("run {} has attempts for a problem whose file is not what it was (hash {}); it cannot be resumed", run_id, n.problem_hash.substr(0, 12)));
      it->nodes.push_back(std::move(n));
    }
  } else {
    run_id = store.begin_run(global.command_line, a.workers.cuda ? "cuda" : "cpu", o.name);
    if (o.out.empty()) o.out = o.name.empty() ? fmt::format("runs/agent-{}", run_id) : "runs/" + o.name;
    store.put_agent_run(run_id, to_json(o).dump());
  }
  a.out_dir = o.out;
  // Warm workers for the whole run, leased by every round's evaluation (agent/warm_workers.hpp).
  agent::WarmWorkers warm(o.device, log_dir() / fmt::format("agent-{}-serve.log", run_id));
  a.workers = warm.leases(0);
  std::cout << fmt::format("kforge agent: run {}, {} problem(s), policy {}, model(s) {}, format {}; attempts in {}\n",
                           run_id, searches.size(), o.policy, fmt::format("{}", fmt::join(o.models, ", ")), o.format,
                           a.out_dir.string())
            << std::flush;  // a run whose output goes to a file says at once that it started
  std::signal(SIGINT, on_interrupt);
  auto summary = agent::run_agent(searches, a, global.db, run_id, g_cancel, [](const std::string& line) {
    std::cout << line << std::endl;
  });
  std::signal(SIGINT, SIG_DFL);
  if (!g_cancel) agent::finish_searches(searches, a, store, run_id, [](const std::string& line) { std::cout << line << std::endl; });
  std::cout << fmt::format("{} attempt(s) this time, {} input and {} output tokens, ${:.4f}{}{}; `kforge agent show {}` "
                           "prints the tree; `kforge agent --resume {}` goes on\n",
                           summary.attempts, summary.input_tokens, summary.output_tokens, summary.cost_usd,
                           summary.profiles ? fmt::format(", {} Nsight Compute profile(s) in {:.0f} s", summary.profiles,
                                                          summary.profile_s)
                                            : "",
                           g_cancel ? "; stopped by Ctrl-C (every finished attempt is kept)" : "", run_id, run_id);
  return g_cancel ? 130 : 0;
}

// kforge agent show: per problem, the tree (children indented under their parent) and the best
// speedup after each attempt against the dollars spent so far.
int run_show(const AgentCommandOptions& o, const GlobalOptions& global) {
  Store store(global.db);
  if (!store.agent_run_options(o.show_run)) throw UsageError(fmt::format("run {} is not a kforge agent run in {}", o.show_run, global.db));
  auto nodes = store.agent_nodes(o.show_run);
  std::map<std::string, std::vector<AgentNode>> by_problem;
  for (auto& n : nodes) by_problem[n.problem_hash].push_back(n);
  auto problem_name = [&](const std::string& hash) {
    for (const auto& r : store.run_evaluations(o.show_run))
      if (r.problem_hash == hash) return r.problem_name;
    return hash.substr(0, 12);
  };
  for (auto& [hash, list] : by_problem) {
    const std::string name = problem_name(hash);
    if (!o.show_problem.empty() && name.find(o.show_problem) == std::string::npos) continue;
    std::cout << name << "\n";
    std::function<void(std::optional<int64_t>, int)> print = [&](std::optional<int64_t> parent, int depth) {
      for (const auto& n : list)
        if (n.parent_id == parent) {
          std::string what = !n.verdict ? "not evaluated" : *n.verdict;
          if (n.speedup && n.verdict && *n.verdict == "correct")
            what = fmt::format("correct {:.3f}x{}", *n.speedup, n.kernel_win ? "" : " (library kernels)");
          std::cout << fmt::format("{}#{} round {} {} ({}): {}\n", std::string(2 + 2 * depth, ' '), n.id, n.round, n.role,
                                   n.model, what);
          print(n.id, depth + 1);
        }
    };
    print(std::nullopt, 0);
    std::cout << "  trajectory (attempt: best speedup so far, dollars so far):";
    double best = 0, dollars = 0;
    int k = 0;
    for (const auto& n : list) {
      ++k;
      dollars += n.cost_usd;
      if (n.speedup && n.verdict && *n.verdict == "correct" && n.kernel_win) best = std::max(best, *n.speedup);
      std::cout << fmt::format(" {}: {} ${:.4f};", k, best > 0 ? fmt::format("{:.3f}x", best) : "-", dollars);
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

Runner add_agent_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<AgentCommandOptions>();
  auto* cmd = app.add_subcommand("agent",
                                 "Make kernels faster by search: a policy proposes attempts, models (kforge.toml) write "
                                 "them, kforge evaluates each and feeds the verdict, speedup and kernels back");
  cmd->add_option("--model,-m", o->models, "Model name from kforge.toml (repeatable: several models share one search)");
  cmd->add_option("--planner", o->planner,
                  "A model (kforge.toml) that reads each correct parent's figures and writes the plan its refinement "
                  "follows [default: none]");
  cmd->add_option("--level", o->levels, "Every problem of this level (repeatable)");
  cmd->add_option("--problem,-p", o->problems, "A problem id, a range of ids (level1/1-10), or any PyTorch file with Model/get_inputs/get_init_inputs (repeatable)");
  cmd->add_option("--suite", o->suite, "Suite folder in the KernelBench layout [default: built-in problems/]");
  cmd->add_option("--config", o->config, "The models' file [default: kforge.toml beside the database]");
  cmd->add_option("--prompts", o->prompts, "Folder of prompt templates [default: the shipped prompts/]");
  cmd->add_option("--format", o->format, "Candidates' format: cuda (native .cu), kernelbench (load_inline), triton or cpp")
      ->check(CLI::IsMember({"cuda", "kernelbench", "triton", "cpp"}));
  cmd->add_option("--fallback", o->fallback, "PyTorch-fallback policy (as kforge eval)")->check(CLI::IsMember({"mixed", "strict"}));
  cmd->add_option("--policy", o->policy, "Search policy: serial (one refinement chain), metr (seeds, then parents drawn "
                                         "by speedup), beam (the best few, each in two directions) or chains (--width "
                                         "serial chains side by side)");
  cmd->add_option("--width", o->policy_options.width, "Attempts per problem per round (metr, beam), or the number of chains (chains)")->check(CLI::Range(1, 256));
  cmd->add_option("--seeds", o->policy_options.seeds, "Fresh attempts before any refinement (metr)")->check(CLI::Range(1, 256));
  cmd->add_option("--beam", o->policy_options.beam, "Parents kept per round (beam)")->check(CLI::Range(1, 64));
  cmd->add_option("--debug-limit", o->policy_options.debug_limit, "Fixes in a row on one line before going back to the best")
      ->check(CLI::Range(0, 100));
  auto* attempts = cmd->add_option("--attempts", o->budgets.attempts, "Attempts per problem at most")->check(CLI::Range(1, 100000));
  auto* budget = cmd->add_option("--budget-usd", o->budgets.usd, "Dollars for the whole run at most [default: 0, no limit]")
                     ->check(CLI::Range(0.0, 1e9));
  auto* wall = cmd->add_option("--max-wall", o->budgets.wall_s, "Seconds for the whole run at most [default: 0, no limit]")
                   ->check(CLI::Range(0.0, 1e9));
  auto* tokens = cmd->add_option("--budget-tokens", o->budgets.tokens,
                                 "Input and output tokens for the whole run at most [default: 0, no limit]")
                     ->check(CLI::Range(int64_t{0}, int64_t{1} << 50));
  auto* problem_usd = cmd->add_option("--problem-usd", o->budgets.problem_usd, "Dollars per problem at most [default: 0, no limit]")
                          ->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--plateau", o->budgets.plateau, "Stop a problem after this many attempts without a new best [default: 0, never]")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--sol-stop", o->budgets.sol_share,
                  "Stop a problem once its best reaches this share of the memory speed of light, e.g. 0.9 [default: 0, never]")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--device", o->device, "Where to evaluate: auto, cpu, cuda or cuda:N (as kforge eval)");
  cmd->add_option("--max-time", o->max_time_s, "Seconds of timing per candidate at most (as kforge eval) [default: eval's]")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--timeout", o->timeout_s, "Seconds one evaluation may take (as kforge eval)")->check(CLI::Range(1, 86400));
  cmd->add_option("--out,-o", o->out, "Run folder for the attempts and best/ [default: runs/<name>, else runs/agent-<run>]");
  cmd->add_option("--name", o->name, "Name the run (unique in the store; the same command again goes on with it, as "
                                    "--resume): kforge report NAME, kforge compare NAME OTHER");
  cmd->add_option("--shard", o->shard,
                  "I/N: search only shard I (from 0) of N of the problems, whole problems split by expected cost "
                  "(stored eager baselines times attempts), the same split on every node; kforge merge joins the shards' stores")
      ->check(planner::shard_error);
  cmd->add_option("--seed", o->seed, "Seed of the policy's random draws");
  cmd->add_flag("--no-reverify", o->no_reverify, "Do not evaluate each problem's best again on fresh inputs at the end");
  cmd->add_option("--profile", o->profile,
                  "Nsight Compute on the slowest own kernel of each round's new best, its digest added to the feedback "
                  "(ncu from PATH or KFORGE_NCU, on a leased GPU): new-best, off, or auto (new-best on a GPU) [default: auto]")
      ->check(CLI::IsMember({"auto", "new-best", "off"}));
  cmd->add_flag("--profile-unconfined", o->profile_unconfined,
                "Profile without the candidate sandbox, as kforge profile --unconfined (where ncu fails inside it)");
  cmd->add_option("--resume", o->resume, "Go on with this stopped run, with the options it began with (--attempts, "
                                         "--budget-usd, --budget-tokens, --problem-usd and --max-wall may give it more room)");
  auto* show = cmd->add_subcommand("show", "Print a run's tree of attempts per problem and the trajectory of its best");
  show->add_option("run", o->show_run, "The run id (kforge agent prints it)")->required();
  show->add_option("problem", o->show_problem, "Only problems whose name contains this");
  cmd->require_subcommand(0, 1);
  return [o, &global, cmd, show, attempts, budget, wall, tokens, problem_usd] {
    if (show->parsed()) return run_show(*o, global);
    (void)cmd;
    return run_agent_command(*o, global, {{"attempts", attempts->count() > 0}, {"budget", budget->count() > 0},
                                          {"wall", wall->count() > 0}, {"tokens", tokens->count() > 0},
                                          {"problem_usd", problem_usd->count() > 0}});
  };
}

}  // namespace kforge::cli
