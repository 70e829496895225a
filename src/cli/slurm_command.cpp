// kforge slurm: a study over a Slurm cluster (src/slurm/study.hpp). submit writes the job array
// and hands it to sbatch; status reads squeue and the shards' own records; resubmit sends again
// the shards that failed or were lost, which go on from their own stores.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "build/subprocess.hpp"
#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "slurm/slurm_config.hpp"
#include "slurm/study.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct SlurmOptions {
  std::string study;
  int shards = 0;
  std::string config;  // kforge.toml, for its [slurm] table (and the models of run and agent)
  slurm::SbatchOptions sbatch;
  std::vector<std::string> command;
};

// Whether `args` give option `flag` (as "--flag VALUE" or "--flag=VALUE").
bool gives(const std::vector<std::string>& args, const std::string& flag) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) { return a == flag || a.rfind(flag + "=", 0) == 0; });
}

// kforge.toml: --config, else beside the submitting store (as the models are found).
std::filesystem::path config_file(const SlurmOptions& o, const GlobalOptions& global) {
  return o.config.empty() ? std::filesystem::absolute(global.db).parent_path() / "kforge.toml"
                          : std::filesystem::absolute(o.config);
}

// The kforge binary that runs now, so every task runs the same one (the folder is shared).
std::string this_binary() {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the kforge binary to run on the nodes: " + ec.message());
  return self.string();
}

// sbatch with `args`: the new job's id (sbatch --parsable prints "ID" or "ID;cluster").
std::string sbatch(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"sbatch", "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = build::run_process(argv, std::chrono::seconds(60));
  std::string out = r.output;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (r.exit_code != 0 || out.empty())
    throw Error("sbatch failed (exit " + std::to_string(r.exit_code) + "): " + (out.empty() ? "no output" : out));
  const auto last_line = out.find_last_of('\n');  // npos + 1 is 0: the whole output is one line
  const auto line = out.substr(last_line + 1);
  return line.substr(0, line.find(';'));
}

// The study's array tasks still in the queue, with their state: squeue's view of every job it submitted.
std::vector<std::pair<int, std::string>> queued_tasks(const slurm::Study& study) {
  std::vector<std::pair<int, std::string>> out;
  for (const auto& job : study.jobs) {
    auto r = build::run_process({"squeue", "-h", "-r", "-j", job, "-o", "%K %T"}, std::chrono::seconds(30));
    if (r.exit_code != 0) continue;  // a job that left the queue long ago is unknown to squeue
    std::istringstream lines(r.output);
    int task = 0;
    std::string state;
    while (lines >> task >> state) out.emplace_back(task, state);
  }
  return out;
}

int run_submit(const SlurmOptions& o, const GlobalOptions& global) {
  static const std::vector<std::string> kCommands{"eval", "baseline", "run", "agent"};
  if (o.command.empty() || std::find(kCommands.begin(), kCommands.end(), o.command.front()) == kCommands.end())
    throw UsageError("kforge slurm submit runs kforge eval, baseline, run or agent: give it after --, as "
                     "`kforge slurm submit --study DIR --shards N -- eval --suite S RUN_FOLDER`");
  for (const char* flag : {"--db", "--shard"})
    if (gives(o.command, flag))
      throw UsageError(std::string("kforge slurm submit gives each shard its --db and --shard itself; leave ") + flag + " out");
  const std::string& what = o.command.front();
  std::vector<std::string> command = o.command;
  // One name for every shard's run, so that kforge merge joins them into one run (and a shard run
  // again goes on with its own): the study folder's, unless the command names it.
  const std::string study_name = std::filesystem::absolute(o.study).filename().string();
  if (what != "baseline" && !gives(command, "--name")) command.insert(command.end(), {"--name", study_name});
  // The models of run and agent are found beside the store, which is the shard's in the study
  // folder: each shard is pointed at the submitting store's kforge.toml instead.
  const auto config = config_file(o, global);
  std::error_code ec;
  if ((what == "run" || what == "agent") && !gives(command, "--config")) {
    if (!std::filesystem::is_regular_file(config, ec))
      throw UsageError("no " + config.string() + ": kforge " + what + " needs the models' kforge.toml (give --config)");
    command.insert(command.end(), {"--config", config.string()});
  }
  slurm::SbatchOptions options = o.sbatch;
#if KFORGE_WITH_LLM
  if (std::filesystem::is_regular_file(config, ec)) options = slurm::with_defaults(o.sbatch, slurm::load_sbatch_defaults(config));
#endif
  slurm::Study study;
  study.folder = std::filesystem::absolute(o.study);
  if (std::filesystem::exists(study.folder / "study.json", ec))
    throw UsageError(o.study + " holds a study already: kforge slurm status/resubmit --study " + o.study);
  std::filesystem::create_directories(study.folder / "logs");
  study.command = command;
  study.shards = o.shards;
  // Every shard weighs problems by the same stored baselines (--shard's split): the submitting
  // store's, copied into each shard's store before any task starts.
  int64_t baselines = 0;
  if (std::filesystem::is_regular_file(global.db, ec))
    for (int i = 0; i < study.shards; ++i)
      baselines = Store(study.folder / fmt::format("shard-{}.db", i)).copy_baselines_from(global.db);
  write_file_atomically(study.folder / "kforge.sbatch", slurm::sbatch_script(study, options, this_binary()));
  save(study);  // before sbatch: a failed submission leaves the study to resubmit
  study.jobs.push_back(sbatch({(study.folder / "kforge.sbatch").string()}));
  save(study);
  std::cout << fmt::format("submitted job {}: {} shard(s) of kforge {} in {}, split by {}\n", study.jobs.back(),
                           study.shards, what, study.folder.string(),
                           what == "baseline" ? std::string("count")
                           : baselines > 0   ? fmt::format("expected cost ({} stored baselines of {})", baselines, global.db)
                                             : std::string("count (no stored baselines to weigh by in " + global.db + ")"));
  if (!gives(o.command, "--name") && what != "baseline")
    std::cout << fmt::format("every shard's run is named '{}': kforge merge joins them into one\n", study_name);
  std::cout << fmt::format("kforge slurm status --study {} follows it; kforge merge {}/shard-*.db --into STORE joins them\n",
                           o.study, study.folder.string());
  return 0;
}

int run_status(const SlurmOptions& o) {
  const auto study = slurm::load(o.study);
  const auto states = slurm::shard_states(study, queued_tasks(study));
  int done = 0;
  std::cout << fmt::format("{:>5}  {:<18} {:>11}\n", "shard", "state", "evaluations");
  for (const auto& s : states) {
    std::cout << fmt::format("{:>5}  {:<18} {:>11}\n", s.index, s.state, s.evaluations);
    done += s.state == "done";
  }
  std::cout << fmt::format("{} of {} shard(s) done; jobs {}\n", done, states.size(), fmt::join(study.jobs, ", "));
  return 0;
}

int run_resubmit(const SlurmOptions& o) {
  auto study = slurm::load(o.study);
  std::vector<int> again;
  for (const auto& s : slurm::shard_states(study, queued_tasks(study)))
    if (s.state == "lost" || s.state.rfind("failed", 0) == 0) again.push_back(s.index);
  if (again.empty()) {
    std::cout << "no shard failed or was lost: nothing to resubmit\n";
    return 0;
  }
  for (int i : again) std::filesystem::remove(study.folder / fmt::format("shard-{}.exit", i));
  study.jobs.push_back(sbatch({fmt::format("--array={}", fmt::join(again, ",")), (study.folder / "kforge.sbatch").string()}));
  save(study);
  std::cout << fmt::format("resubmitted shard(s) {} as job {}; each goes on from its own store\n", fmt::join(again, ", "),
                           study.jobs.back());
  return 0;
}

}  // namespace

Runner add_slurm_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<SlurmOptions>();
  auto* cmd = app.add_subcommand("slurm", "A study over a Slurm cluster: shards as one job array, each into a store of "
                                          "its own, followed and resubmitted, then joined by kforge merge");
  cmd->require_subcommand(1);
  auto* submit = cmd->add_subcommand("submit", "Split a kforge eval, baseline, run or agent into shards and submit them as one sbatch job array");
  submit->add_option("--study", o->study, "The study's folder, on storage every node sees (made)")->required();
  submit->add_option("--shards", o->shards, "How many shards (array tasks)")->required()->check(CLI::Range(1, 100000));
  submit->add_option("--partition", o->sbatch.partition, "sbatch --partition [default: kforge.toml's [slurm] partition]");
  submit->add_option("--account", o->sbatch.account, "sbatch --account [default: [slurm] account]");
  submit->add_option("--time", o->sbatch.time, "sbatch --time, per shard [default: [slurm] time]");
  submit->add_option("--gpus-per-node", o->sbatch.gpus_per_node,
                     "sbatch --gpus-per-node (every GPU of the node is used) [default: [slurm] gpus_per_node]")
      ->check(CLI::Range(0, 64));
  submit->add_option("--sbatch-option", o->sbatch.extra,
                     "Another sbatch option for every shard, as --qos=high (repeatable; added to [slurm] options)");
  submit->add_option("--config", o->config,
                     "kforge.toml with the [slurm] table, and the models of run and agent [default: beside the database]");
  // What follows the options is the study's kforge command, taken whole (its flags are its own,
  // not submit's): `-- eval --suite S RUN_FOLDER`.
  submit->prefix_command();
  submit->allow_extras();
  submit->fallthrough(false);  // the command's flags are its own, not the parents'
  submit->footer("After the options: -- and the kforge command of the study: eval, baseline, run or agent with its own "
                 "options. Each shard gets --db STUDY/shard-I.db and --shard I/N; eval, run and agent also --name (the "
                 "study folder's name, unless given), and run and agent --config (this kforge.toml).");
  auto* status = cmd->add_subcommand("status", "Each shard's state (squeue, and its own exit record) and its evaluations so far");
  status->add_option("--study", o->study, "The study's folder")->required();
  auto* resubmit = cmd->add_subcommand("resubmit", "Submit again the shards that failed or were lost (cancelled, preempted)");
  resubmit->add_option("--study", o->study, "The study's folder")->required();
  return [o, submit, status, &global] {
    if (submit->parsed()) {
      // After `--` (main.cpp sets it aside), or what CLI11 left after the options.
      o->command = global.study_command.empty() ? submit->remaining() : global.study_command;
      if (!o->command.empty() && o->command.front() == "--") o->command.erase(o->command.begin());
      return run_submit(*o, global);
    }
    if (status->parsed()) return run_status(*o);
    return run_resubmit(*o);
  };
}

}  // namespace kforge::cli
