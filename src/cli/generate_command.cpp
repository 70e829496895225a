// kforge generate: candidates from a model for problems of the suite (src/generate/, src/llm/);
// kforge run: generate, then kforge eval and kforge report over what was generated.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "planner/shards.hpp"

#if KFORGE_WITH_LLM
#include "cli/model_choice.hpp"
#include "cli/shard_choice.hpp"
#include "cli/worker_choice.hpp"
#include "generate/batch_generation.hpp"
#include "llm/model_config.hpp"
#include "store/store.hpp"
#include "suite/candidate.hpp"
#endif

namespace kforge::cli {
namespace {

struct GenerateCommandOptions {
  std::string model;
  std::vector<int> levels;
  std::vector<std::string> problems;
  std::string suite;
  std::string config;
  std::string out;  // empty: runs/<name>, else runs/<model>
  std::string name;  // optional: the folder's name, and the run's (kforge run)
  std::string prompts;
  std::string format = "cuda";
  std::string fallback = "mixed";
  int samples = 1;
  int concurrency = 0;
  bool dry_run = false;
  bool force = false;
  std::string shard;  // "I/N": only this shard of the problems, into the folder's shard-I/ (planner/shards.hpp)
};

struct RunCommandOptions {
  GenerateCommandOptions generate;
  std::string device = "auto";
  double max_time_s = 0;
  // kforge eval's options that run passes on as given (empty or false: eval's default).
  std::string precision, trials, timeout, arch;
  bool cuda_graph = false, server = false;
};

// Where the candidates go: --out, else runs/<name>, else runs/<model>; a shard's into shard-I/ of
// it, so that the shards of a study may share the folder and each evaluates only its own.
std::filesystem::path run_folder(const GenerateCommandOptions& o) {
  std::filesystem::path folder = !o.out.empty() ? std::filesystem::path(o.out)
                                                : std::filesystem::path("runs") / (o.name.empty() ? o.model : o.name);
  if (!o.shard.empty()) folder /= fmt::format("shard-{}", planner::parse_shard(o.shard)->index);
  return folder;
}

#if KFORGE_WITH_LLM
std::atomic<bool> g_cancel{false};
void on_interrupt(int) { g_cancel = true; }

// Generates (or, with --dry-run, sizes) and prints the summary; nothing when there was nothing to do.
std::optional<generate::GenerateSummary> generate_step(const GenerateCommandOptions& o, const GlobalOptions& global) {
  std::filesystem::path config;
  const auto models = declared_models(o.config, global.db, &config);
  const llm::ModelConfig& model = declared_model(models, o.model, config);
  std::vector<Problem> chosen =
      chosen_problems(o.levels, o.problems, o.suite, "nothing to generate for: give --level L or --problem P (each may repeat)");
  Store store(global.db);
  if (!o.shard.empty()) keep_problem_shard(chosen, o.shard, expected_cost_weight(o.samples, store));

  generate::GenerateOptions g;
  g.model = model;
  g.key = o.dry_run ? "" : llm::api_key(g.model);  // a missing key is said before any call
  g.prompt.format = o.format;
  g.prompt.fallback = o.fallback;
  g.prompt.prompts_dir = o.prompts;
  g.samples = o.samples;
  g.concurrency = o.concurrency;
  g.out_dir = run_folder(o);
  g.dry_run = o.dry_run;
  g.force = o.force;
  g.prompt.device = store.latest_device_peaks();

  std::signal(SIGINT, on_interrupt);
  auto summary = generate::generate_candidates(chosen, g, store, g_cancel,
                                               [](const std::string& line) { std::cout << line << std::endl; });
  std::signal(SIGINT, SIG_DFL);
  // Which suite the candidates' ids belong to, for `kforge eval` of this folder (where it has any).
  std::error_code ec;
  if (!o.dry_run && std::filesystem::is_directory(g.out_dir, ec))
    std::ofstream(g.out_dir / kSuiteMarkerFile)
        << (o.suite.empty() ? std::string(kBuiltinSuiteMarker) : std::filesystem::absolute(o.suite).string()) << "\n";
  if (o.dry_run) {
    std::cout << fmt::format("dry run: {} call(s) of {} ({}), ~{} input tokens; at most ${:.2f} with {} output tokens each\n",
                             summary.planned - summary.skipped, g.model.name, g.model.model, summary.input_tokens,
                             summary.estimated_max_usd, g.model.max_tokens);
    return summary;
  }
  std::cout << fmt::format("{} planned: {} with a candidate, {} without code, {} failed{}{}; {} input and {} output "
                           "tokens, ${:.4f}; candidates in {}, calls in {}\n",
                           summary.planned, summary.ok, summary.no_code, summary.failed,
                           summary.skipped ? fmt::format(", {} already generated", summary.skipped) : "",
                           summary.cancelled || g_cancel ? ", stopped by Ctrl-C (what finished is kept)" : "",
                           summary.input_tokens, summary.output_tokens, summary.cost_usd, g.out_dir.string(), global.db);
  if (!summary.stopped.empty())
    std::cerr << fmt::format("kforge: stopped after a call the provider refused in a way every call would be: {}; "
                             "no further call was made (check the key and the model in kforge.toml)\n",
                             summary.stopped);
  return summary;
}

// Whether a batch failed as a whole: stopped by a refused key or model, or with calls to make and
// none answered. Its exit status is then 1, so a script does not go on as if it had candidates.
bool batch_failed(const generate::GenerateSummary& s) {
  return !s.stopped.empty() || (s.planned > s.skipped && s.answered() == 0 && s.cancelled == 0);
}

int run_generate(const GenerateCommandOptions& o, const GlobalOptions& global) {
  auto summary = generate_step(o, global);
  if (g_cancel) return 130;
  return summary && !o.dry_run && batch_failed(*summary) ? 1 : 0;
}


// Runs one of kforge's own commands in this process, with its own parser and defaults.
int run_subcommand(Runner (*add)(CLI::App&, const GlobalOptions&), const GlobalOptions& global,
                   std::vector<std::string> args) {
  CLI::App app;
  Runner runner = add(app, global);
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
  app.parse(args);
  return runner();
}

int run_run(const RunCommandOptions& o, const GlobalOptions& global) {
  if (o.generate.dry_run) return generate_step(o.generate, global) ? 0 : 1;
  // Said before anything is paid for: answers that cannot run where they are to be evaluated.
  if ((o.generate.format == "cuda" || o.generate.format == "triton") && !choose_workers(o.device).cuda)
    throw UsageError("--format " + o.generate.format + " candidates need a GPU, and the evaluation would run on the CPU (--device " +
                     o.device + "): use --format cpp or kernelbench, or a GPU");
  if (!o.generate.name.empty()) {
    // Said before anything is paid for: the evaluation would refuse the name after the generation
    // (the same command again goes on with its run: a shard run again after preemption).
    Store store(global.db);
    if (auto taken = store.name_taken_by_another_command(o.generate.name, global.command_line))
      throw UsageError(fmt::format("a run named '{}' exists already (run {}, started by another command line); choose "
                                   "another --name, or see kforge runs",
                                   o.generate.name, *taken));
  }
  auto summary = generate_step(o.generate, global);
  if (g_cancel) return 130;
  if (!summary || summary->ok + summary->skipped == 0) {
    std::cout << "no candidates to evaluate\n";
    return 1;
  }
  std::vector<std::string> eval{"eval", run_folder(o.generate).string(), "--device", o.device, "--fallback", o.generate.fallback};
  if (!o.generate.suite.empty()) eval.insert(eval.end(), {"--suite", o.generate.suite});
  if (o.max_time_s > 0) eval.insert(eval.end(), {"--max-time", fmt::format("{}", o.max_time_s)});
  if (!o.generate.name.empty()) eval.insert(eval.end(), {"--name", o.generate.name});
  for (const auto& [flag, value] : {std::pair{"--precision", o.precision}, std::pair{"--trials", o.trials},
                                    std::pair{"--timeout", o.timeout}, std::pair{"--arch", o.arch}})
    if (!value.empty()) eval.insert(eval.end(), {flag, value});
  if (o.cuda_graph) eval.push_back("--cuda-graph");
  if (o.server) eval.push_back("--server");
  std::cout << "\n";
  run_subcommand(add_eval_command, global, eval);
  {
    // The samples that got no candidate are failures of this run too (fast_p over all asked),
    // and what its candidates cost is stored with it: this batch's calls and those of the earlier
    // batches it resumed.
    Store store(global.db);
    if (auto run = o.generate.name.empty() ? store.latest_run() : store.find_run(o.generate.name)) {
      for (const auto& m : summary->missing)
        store.add_gap(*run, {m.problem, fmt::format("{} sample {}", o.generate.model, m.sample), m.level, m.problem_id,
                             m.outcome, m.message});
      store.set_run_cost(*run, {summary->planned, summary->input_tokens + summary->earlier_input_tokens,
                                summary->output_tokens + summary->earlier_output_tokens,
                                summary->cost_usd + summary->earlier_cost_usd});
    }
  }
  std::cout << "\n";
  run_subcommand(add_report_command, global, {"report"});
  std::cout << fmt::format("generation: {} call(s) of {}, {} input and {} output tokens, ${:.4f}",
                           summary->planned - summary->skipped, o.generate.model, summary->input_tokens,
                           summary->output_tokens, summary->cost_usd);
  if (summary->skipped > 0)
    std::cout << fmt::format("; with the {} sample(s) generated before, {} input and {} output tokens, ${:.4f}",
                             summary->skipped, summary->input_tokens + summary->earlier_input_tokens,
                             summary->output_tokens + summary->earlier_output_tokens,
                             summary->cost_usd + summary->earlier_cost_usd);
  std::cout << "\n";
  return summary->stopped.empty() ? 0 : 1;  // what was generated before the stop is evaluated, but the run failed
}
#else
[[noreturn]] void without_providers() {
  throw Error("this kforge was built without model providers (cpp-httplib and toml++ were not found; tools/setup.sh "
              "installs them)");
}
int run_generate(const GenerateCommandOptions&, const GlobalOptions&) { without_providers(); }
int run_run(const RunCommandOptions&, const GlobalOptions&) { without_providers(); }
#endif

// The options generate and run share.
void add_generation_options(CLI::App* cmd, GenerateCommandOptions& o) {
  cmd->add_option("--model,-m", o.model, "Model name from kforge.toml's [models.NAME]")->required();
  cmd->add_option("--level", o.levels, "Every problem of this level (repeatable)");
  cmd->add_option("--problem,-p", o.problems, "A problem id, a range of ids (level1/1-10), or a file (repeatable)");
  cmd->add_option("--samples", o.samples, "Candidates per problem")->check(CLI::Range(1, 1000));
  cmd->add_option("--format", o.format, "Target format: cuda (native .cu), kernelbench (load_inline), triton or cpp")
      ->check(CLI::IsMember({"cuda", "kernelbench", "triton", "cpp"}));
  cmd->add_option("--fallback", o.fallback, "The PyTorch-fallback policy the prompt states")
      ->check(CLI::IsMember({"mixed", "strict"}));
  cmd->add_option("--concurrency", o.concurrency, "Calls at once at most, under each model's own limit [default: the model's]")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--config", o.config, "The models' file [default: kforge.toml beside the database]");
  cmd->add_option("--suite", o.suite, "Suite folder in the KernelBench layout [default: built-in problems/]");
  cmd->add_option("--prompts", o.prompts, "Folder of prompt templates [default: the shipped prompts/]");
  cmd->add_flag("--dry-run", o.dry_run, "Show each prompt's size and the most the run could cost; call nothing");
  cmd->add_flag("--force", o.force, "Ask again for every sample, also those the store has an answer for under the same "
                                    "prompt and settings (by default those are not paid for again, only written back "
                                    "where the folder lacks them)");
  cmd->add_option("--name", o.name, "Name the run folder [default: runs/NAME] and, with kforge run, the stored run "
                                    "(unique; the same command again goes on with it): kforge report NAME, kforge "
                                    "compare NAME OTHER");
  cmd->add_option("--shard", o.shard,
                  "I/N: only shard I (from 0) of N of the problems, whole problems split by expected cost (stored "
                  "eager baselines times samples), the same split on every node; candidates go to the folder's shard-I/")
      ->check(planner::shard_error);
}

}  // namespace

Runner add_generate_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<GenerateCommandOptions>();
  auto* cmd = app.add_subcommand(
      "generate", "Ask a model (declared in kforge.toml) for candidates, each call recorded in the store and each "
                  "candidate written to a run folder that kforge eval reads; resumable");
  add_generation_options(cmd, *o);
  cmd->add_option("--out,-o", o->out,
                  "Run folder [default: runs/<name>, else runs/<model>]: level_<L>_problem_<P>_sample_<k>_kernel.py (kernelbench, triton), "
                  "level<L>/<id>_<Name>/<model>_sample<k>.<cu|cpp> (cuda, cpp)");
  return [o, &global] { return run_generate(*o, global); };
}

Runner add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<RunCommandOptions>();
  auto* cmd = app.add_subcommand(
      "run", "Generate candidates with a model, evaluate them, and print fast_p with the tokens and dollars spent "
             "(kforge generate, then kforge eval and kforge report over the run folder)");
  add_generation_options(cmd, o->generate);
  cmd->add_option("--out,-o", o->generate.out, "Run folder [default: runs/<name>, else runs/<model>] (as kforge generate's)");
  cmd->add_option("--device", o->device, "Where to evaluate: auto, cpu, cuda or cuda:N (as kforge eval)");
  cmd->add_option("--max-time", o->max_time_s, "Seconds of timing per candidate at most (as kforge eval) [default: eval's]")
      ->check(CLI::Range(0.0, 3600.0));
  // Passed on to kforge eval as given, checked here as eval checks them, so a wrong one is said
  // before any call is paid for.
  cmd->add_option("--precision", o->precision, "As kforge eval's [default: the problem's]")
      ->check(CLI::IsMember({"fp32", "fp16", "bf16"}));
  cmd->add_option("--trials", o->trials, "As kforge eval's [default: eval's]")->check(CLI::Range(1, 1000));
  cmd->add_option("--timeout", o->timeout, "As kforge eval's [default: eval's]")->check(CLI::Range(1, 86400));
  cmd->add_option("--arch", o->arch, "As kforge eval's [default: auto]");
  cmd->add_flag("--cuda-graph", o->cuda_graph, "As kforge eval's: time CUDA graph replays");
  cmd->add_flag("--server", o->server, "As kforge eval's: evaluate on kforge serve's warm workers");
  return [o, &global] { return run_run(*o, global); };
}

}  // namespace kforge::cli
