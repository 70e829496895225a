// kforge eval: evaluate candidates against their problems and store the results.
//   kforge eval --problem PROBLEM CANDIDATE...   candidates for one problem (file or built-in id)
//   kforge eval DIR                              every candidate found in DIR, matched by path
#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <mutex>
#include <regex>
#include <map>
#include <set>
#include <thread>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "cli/worker_choice.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "planner/shards.hpp"
#include "suite/candidate.hpp"
#include "planner/builds_ahead.hpp"
#include "planner/executor.hpp"
#include "planner/inline_prebuild.hpp"
#include "planner/native_builds.hpp"
#include "pool/devices.hpp"
#include "report/formatting.hpp"
#include "report/results_table.hpp"
#include "serve/serve_messages.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct EvalOptions {
  std::string problem;
  std::vector<std::string> targets;
  std::string suite;
  bool json = false;
  bool wide = false;  // the results table with every cell whole, whatever the terminal's width
  bool server = false;
  std::string socket;
  std::string name;  // the run's, optional
  std::string shard;  // "I/N": only this shard of the problems (planner/shards.hpp); empty: all
  EvalSettings settings;
};

// Why a multi-rank problem's candidates are not evaluated in this run: its judge (one worker per
// rank, pool/rank_job.hpp) runs on the CPU so far, and on workers of its own.
std::string multi_rank_not_here(const Problem& problem, bool server) {
  return problem.display_name() + " is a multi-rank problem (world_size = " + std::to_string(problem.world_size) +
         "): kforge evaluates its candidates on the CPU so far (--device cpu)" +
         (server ? ", and not through kforge serve" : "; on GPUs, one per rank, not yet");
}

std::vector<PlannedEval> plan_for_problem(const EvalOptions& o, const SuiteLoad& builtin, bool rank_jobs_here) {
  std::vector<PlannedEval> plan;
  Problem problem = resolve_problem(o.problem, builtin);
  if (problem.world_size > 1 && !rank_jobs_here) throw UsageError(multi_rank_not_here(problem, o.server));
  if (o.targets.empty()) throw UsageError("--problem needs at least one CANDIDATE file");
  for (const auto& target : o.targets) {
    std::error_code ec;
    if (std::filesystem::is_directory(target, ec))
      throw UsageError("with --problem, candidates are files; '" + target + "' is a folder (drop --problem to evaluate a folder)");
    plan.push_back(plan_candidate(problem, target, target));
  }
  return plan;
}

// Files named as upstream's generations carry upstream's problem ids, which are not the built-in
// suite's: matched against it, each would be judged on another problem. Allowed only where
// `kforge generate` wrote them for the built-in suite (its marker file says so).
void refuse_upstream_ids_against_builtin(const EvalOptions& o, const std::filesystem::path& dir, const Discovery& found) {
  if (!o.suite.empty()) return;
  std::vector<std::string> upstream;
  for (const auto& f : found.candidates)
    if (upstream_generation_name(f.path)) upstream.push_back(f.relative);
  if (upstream.empty()) return;
  std::error_code ec;
  const auto marker = dir / kSuiteMarkerFile;
  if (std::filesystem::is_regular_file(marker, ec) && read_source_file(marker, 4096).starts_with(kBuiltinSuiteMarker)) return;
  throw UsageError(fmt::format(
      "{} file(s) in {} are named as upstream KernelBench generations ({}{}), whose problem ids are upstream's, not "
      "the built-in suite's (built-in level1/19 is not upstream's level1/19): against the built-in suite each would be "
      "judged on another problem. Give --suite with upstream's problems (the KernelBench/ folder of its checkout); "
      "a folder `kforge generate` wrote for the built-in suite holds {} and is accepted",
      upstream.size(), dir.string(), upstream.front(), upstream.size() > 1 ? ", ..." : "", kSuiteMarkerFile));
}

std::vector<PlannedEval> plan_for_dir(const EvalOptions& o, const SuiteLoad& suite, bool cpu_run, bool rank_jobs_here) {
  if (o.targets.size() != 1)
    throw UsageError("give one folder (kforge eval DIR), or --problem PROBLEM with candidate files");
  std::filesystem::path dir = o.targets[0];
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    if (std::filesystem::exists(dir, ec))
      throw UsageError("'" + dir.string() + "' is a file: evaluate a single candidate with --problem PROBLEM " + dir.string());
    throw UsageError("no such folder: " + dir.string());
  }
  Discovery found = discover_candidates(dir);
  refuse_upstream_ids_against_builtin(o, dir, found);
  std::vector<PlannedEval> plan;
  int needs_gpu = 0, host_only = 0;
  std::vector<std::string> no_problem;
  std::set<std::string> multi_rank;  // what is said of each such problem, once
  for (const auto& f : found.candidates) {
    const Problem* problem = nullptr;
    for (const auto& p : suite.problems)
      if (p.level == f.key.level && p.id == f.key.id) problem = &p;
    if (!problem) {
      no_problem.push_back(f.relative);
      continue;
    }
    if (problem->world_size > 1 && !rank_jobs_here) {
      multi_rank.insert(multi_rank_not_here(*problem, o.server));
      continue;
    }
    PlannedEval e = plan_candidate(*problem, f.path, f.relative);
    if (cpu_run && e.load_failure.empty() && candidate_needs_cuda(e.candidate.path, e.candidate.source)) {
      ++needs_gpu;
      continue;
    }
    if (!cpu_run && f.path.extension() == ".cpp") {
      ++host_only;
      continue;
    }
    plan.push_back(std::move(e));
  }
  for (const auto& u : found.unmatched)
    std::cerr << "kforge: note: " << u << " matches no problem layout (" << kCandidateLayouts << "); skipped\n";
  for (const auto& u : no_problem) std::cerr << "kforge: note: " << u << ": the suite has no such problem; skipped\n";
  for (const auto& m : multi_rank) std::cerr << "kforge: note: " << m << "; its candidates were skipped\n";
  if (needs_gpu)
    std::cerr << "kforge: note: " << needs_gpu << " candidate(s) need a GPU (CUDA or Triton) and were left out of "
              << "this CPU run\n";
  if (host_only)
    std::cerr << "kforge: note: " << host_only << " cpp candidate(s) are host code and were left out of this GPU run "
              << "(--device cpu runs them)\n";
  return plan;
}

// The workers of a `kforge serve`: one lease per worker it has. Their bounds are the server's.
ExecutorConfig served_workers(const EvalOptions& o) {
  if (o.settings.host_memory_gib > 0 || o.settings.cpu_cores > 0)
    throw UsageError("with --server the workers run under the server's bounds: give --host-memory and --cpu-share "
                     "to kforge serve");
  const std::filesystem::path socket = o.socket.empty() ? serve::default_socket_path() : std::filesystem::path(o.socket);
  serve::ServerStatus status = serve::query_status(socket);
  const std::string& asked = o.settings.device;
  if (asked != "auto" && (asked == "cpu") != (status.device == "cpu"))
    throw UsageError("--device " + asked + ": the kforge serve at " + socket.string() + " has " + status.device +
                     " workers (" + fmt::format("{}", fmt::join(status.labels, ", ")) + ")");
  if (asked.rfind("cuda:", 0) == 0)
    throw UsageError("--device " + asked + " with --server: the server's workers are used, all of them; start kforge serve "
                     "--device " + asked + " to serve one GPU");
  ExecutorConfig config;
  config.server = socket;
  config.cuda = status.device == "cuda";
  config.worker_devices = status.labels;
  return config;
}

// Keeps the problems of one shard of the plan, whole (a problem's candidates share its reference
// process), split by expected cost over every shard alike on every node (planner/shards.hpp).
void keep_shard(std::vector<PlannedEval>& plan, const planner::ShardSpec& shard, Store& store) {
  std::map<std::string, std::pair<std::string, int>> problems;  // name -> its hash, candidates
  for (const auto& e : plan) {
    auto& [hash, candidates] = problems[e.problem_name];
    hash = e.problem.hash;
    ++candidates;
  }
  std::vector<std::string> names;
  std::vector<double> weights;
  for (const auto& [name, p] : problems) {
    names.push_back(name);
    weights.push_back(planner::expected_cost_s(p.second, store.typical_eager_ms(p.first)));
  }
  const auto pick = planner::pick_shard(weights, shard);
  std::set<std::string> kept;
  for (size_t i : pick.items) kept.insert(names[i]);
  const size_t before = plan.size();
  std::erase_if(plan, [&](const PlannedEval& e) { return !kept.count(e.problem_name); });
  std::cerr << fmt::format("kforge: shard {}/{}: {} of {} problems, {} of {} candidates, {:.0f}% of the expected work\n",
                           shard.index, shard.count, kept.size(), names.size(), plan.size(), before, 100 * pick.share);
}

int run_eval(const EvalOptions& o, const GlobalOptions& global) {
  static const std::regex device_pattern(R"(^(auto|cpu|cuda|cuda:\d+)$)");
  if (!std::regex_match(o.settings.device, device_pattern))
    throw UsageError("--device must be auto, cpu, cuda or cuda:N, not '" + o.settings.device + "'");
  if (o.targets.empty()) throw UsageError("nothing to evaluate: give a folder, or --problem PROBLEM CANDIDATE...");
  const auto& t = o.settings.timing;
  if (t.min_samples > t.max_samples) throw UsageError("--min-samples is larger than --max-samples");
  if (t.min_time_s > t.max_time_s) throw UsageError("--min-time is larger than --max-time");

  SuiteLoad suite = load_suite(o.suite.empty() ? builtin_suite_dir() : std::filesystem::path(o.suite));
  for (const auto& e : suite.errors) std::cerr << "kforge: note: suite: " << e << '\n';

  ExecutorConfig workers = o.server ? served_workers(o) : choose_workers(o.settings.device);
  if (!workers.cuda && o.settings.fallback == "strict")
    throw UsageError("--fallback strict needs a GPU: on the CPU there are no kernels to tell apart");
  if (!workers.cuda && o.settings.timing.cuda_graph) throw UsageError("--cuda-graph needs a GPU");
  if (!o.server) {
    workers.host_memory_bytes = host_memory_bound(o.settings.host_memory_gib, workers.worker_devices.size());
    workers.cpu_cores = cpu_share(o.settings.cpu_cores, workers.worker_devices.size());
  }
  const bool rank_jobs_here = !workers.cuda && !o.server;
  auto plan = o.problem.empty() ? plan_for_dir(o, suite, !workers.cuda, rank_jobs_here) : plan_for_problem(o, suite, rank_jobs_here);
  Store store(global.db);
  if (!o.shard.empty()) keep_shard(plan, *planner::parse_shard(o.shard), store);
  if (plan.empty()) {
    std::cerr << "kforge: no candidates to evaluate\n";
    return 0;
  }

  for (auto& e : plan) {
    e.format = build::format_of(e.candidate_name).value_or(build::Format::kernelbench);
    if (workers.cuda && e.format == build::Format::cpp && e.load_failure.empty())
      e.load_failure = "a cpp candidate is host code: evaluate it with --device cpu";
    if (!workers.cuda && e.format == build::Format::cuda && e.load_failure.empty())
      e.load_failure = "a cuda candidate needs a GPU: evaluate it with --device cuda (kforge build compiles it anywhere)";
  }
  for (const auto& e : plan) {
    store.put_problem(e.problem);
    if (e.load_failure.empty()) store.put_candidate(e.candidate);
  }
  std::string device_label = workers.cuda ? "cuda" : "cpu";
  bool continued = false;
  int64_t run_id = store.begin_run(global.command_line, device_label, o.name, &continued);
  if (continued)
    std::cerr << fmt::format("kforge: going on with run {} ('{}'), started by this same command; what it finished is "
                             "reused\n", run_id, o.name);
  // The nvcc target, resolved once and only when something is compiled for the GPU: `auto` asks
  // the driver, which costs a CUDA initialisation in this process.
  const bool gpu_builds = workers.cuda && std::any_of(plan.begin(), plan.end(), [](const PlannedEval& e) {
    return (builds_natively(e) && e.format == build::Format::cuda) || builds_load_inline(e);
  });
  const std::string arch = resolve_arch(o.settings.arch, gpu_builds);
  // Before any thread starts: the workers and the load_inline builds inherit it.
  if (gpu_builds) export_torch_arch_list(arch);

  // Builds run while the workers start (importing torch and creating a CUDA context takes seconds)
  // and while they evaluate: a job waits for its own build only.
  const Prepare prepare = builds_ahead(plan, arch, workers.cuda, workers.worker_devices.size(), store);

  Progress progress;
  auto on_started = [&](const PlannedEval& e, size_t index, size_t total) {
    progress.show(fmt::format("[{}/{}] {} :: {} ...", index + 1, total, report::escaped(e.problem_name),
                              report::escaped(e.candidate_name)));
  };
  const auto started = std::chrono::steady_clock::now();
  auto on_finished = [&](const EvaluationRecord& r, size_t done, size_t total) {
    if (o.json) {
      progress.clear();
      std::cout << report::evaluation_json(r).dump() << std::endl;
    }
    const std::string line = fmt::format("[{}/{}] {} :: {} -> {} {}", done, total, report::escaped(r.problem_name),
                                         report::escaped(r.candidate_name),
                                         to_string(r.verdict), report::format_speedup(r.speedup, std::nullopt));
    if (progress.enabled()) {
      progress.show(line);
      return;
    }
    // Not a terminal (a log, a batch job): a line per finished candidate, so a long run is never
    // silent, with the time so far and what the rate so far leaves.
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double left = done ? elapsed / static_cast<double>(done) * static_cast<double>(total - done) : 0;
    std::cerr << "kforge: " << line << fmt::format(" ({:.0f} s so far, about {:.0f} s left)", elapsed, left) << std::endl;
  };
  auto records = execute_plan(plan, o.settings, workers, store, run_id, prepare, on_started, on_finished);
  progress.clear();
  if (!o.json) {
    report::print_results_table(std::cout, records, o.wide ? 0 : report::output_columns());
    std::cout << fmt::format("\nrun {} on {} ({}); stored in {}; `kforge report` shows fast_p\n", run_id,
                             records.empty() ? device_label : records.front().device,
                             records.empty() ? "" : records.front().device_name, global.db);
  }
  return 0;
}

}  // namespace

Runner add_eval_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<EvalOptions>();
  auto* cmd = app.add_subcommand("eval", "Evaluate candidates: correctness against the reference, then timing");
  cmd->add_option("targets", o->targets,
                  "A folder of candidates (matched to problems by path), or with --problem the candidate files");
  cmd->add_option("--problem,-p", o->problem, "Problem file, or a built-in id such as level1/19");
  cmd->add_option("--suite", o->suite, "Suite folder in the KernelBench layout that DIR is matched against [default: built-in problems/]");
  cmd->add_option("--device", o->settings.device, "auto (cuda if a GPU is present, else cpu), cpu, cuda (every GPU) or cuda:N")
      ->envname("KFORGE_DEVICE");
  cmd->add_option("--precision", o->settings.precision, "dtype fp32 inputs and parameters are cast to [default: the problem's declared `precision`, else fp32]")
      ->check(CLI::IsMember({"fp32", "fp16", "bf16"}));
  cmd->add_option("--trials", o->settings.correctness_trials, "Correctness trials, each with fresh inputs from a secret seed")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--atol", o->settings.atol, "Absolute tolerance [default: per dtype: fp32 1e-4, or 2^-16 of an output's largest value where larger; fp16/bf16 1e-2]");
  cmd->add_option("--rtol", o->settings.rtol, "Relative tolerance [default: per dtype, as --atol]");
  cmd->add_option("--fallback", o->settings.fallback,
                  "PyTorch-fallback policy (CUDA): mixed reports the share of GPU time in the candidate's own "
                  "kernels; strict rejects a candidate whose forward launches only library kernels")
      ->check(CLI::IsMember({"mixed", "strict"}));
  auto& t = o->settings.timing;
  cmd->add_option("--warmup", t.warmup, "Untimed pairs (a call of each model, fresh inputs, rechecked) before the timed ones")->check(CLI::Range(0, 1000));
  cmd->add_option("--min-samples", t.min_samples, "Timed pairs (reference, candidate) at least")->check(CLI::Range(1, 100000));
  cmd->add_option("--max-samples", t.max_samples, "Timed pairs at most")->check(CLI::Range(1, 100000));
  cmd->add_option("--min-time", t.min_time_s, "Seconds of timing at least")->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--max-time", t.max_time_s, "Seconds of timing at most (wall cap; up to three times it while the candidate's reported times are undecided against the reference twin's)")->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--target-ci", t.target_rel_ci,
                  "Stop once the speedup's 95% bootstrap interval half-width is below this fraction of it (the "
                  "reported interval adds a 0.5% systematic allowance each side)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_flag("--cuda-graph", t.cuda_graph,
                "Time replays of a CUDA graph of each forward (captured once, inputs copied in before each timed "
                "call): the GPU's work without launch overhead");
  cmd->add_option("--arch", o->settings.arch, "nvcc target of cuda candidates: auto (the GPU's, sm_90a on an H200) or e.g. sm_90a");
  cmd->add_option("--timeout", o->settings.timeout_s, "Seconds one evaluation may take before its worker is killed")
      ->check(CLI::Range(1, 86400));
  cmd->add_option("--host-memory", o->settings.host_memory_gib,
                  "GiB of resident host memory a worker may reach before it is killed (runtime_error) "
                  "[default: 0, meaning three quarters of this machine's memory shared by the workers]")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--cpu-share", o->settings.cpu_cores,
                  "CPU cores a job may keep busy, averaged over 3 s, before its worker is killed (runtime_error) "
                  "[default: 0, meaning this machine's cores shared by the workers]")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--scratch-disk", o->settings.scratch_disk_gib,
                  "GiB of disk a candidate's scratch folder (the one place its process may write) may hold, and so "
                  "the largest file it may write, before its process is killed (runtime_error) [default: 8; 0: unbounded]")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_flag("--server", o->server,
                "Run the jobs on the warm workers of a `kforge serve` on this machine (no worker start: an "
                "evaluation of one candidate takes about its own time)");
  cmd->add_option("--socket", o->socket, "The kforge serve's socket [default: as kforge serve's]")->needs("--server");
  cmd->add_flag("--force", o->settings.force, "Evaluate again even when the store holds a result for the same inputs and settings");
  cmd->add_flag("--json", o->json, "One JSON object per candidate per line on stdout instead of the table");
  cmd->add_flag("--wide", o->wide, "The results table with every cell whole (by default a terminal's width cuts the messages, then the names)");
  cmd->add_option("--name", o->name, "Name the run (unique in the store; the same command again goes on with it): "
                                    "kforge report NAME, kforge compare NAME OTHER");
  cmd->add_option("--shard", o->shard,
                  "I/N: evaluate only shard I (from 0) of N, whole problems split by expected cost (stored eager "
                  "baselines times candidates), the same split on every node; kforge merge joins the shards' stores")
      ->check(planner::shard_error);
  return [o, &global] { return run_eval(*o, global); };
}

}  // namespace kforge::cli
