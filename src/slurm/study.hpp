#pragma once
// A kforge study on Slurm (kforge slurm): one kforge command split into N shards (--shard I/N),
// run as one sbatch job array, each task into a store of its own under the study's folder, and
// what Slurm and those stores say of each shard. Slurm allocates, launches, requeues and
// accounts; kforge only writes the script, reads the queue and the shards' own records.
//
// The folder: study.json (the command, the shard count, the jobs submitted), kforge.sbatch, and
// per shard shard-I.db, shard-I.exit (the task's exit status, written as it ends) and
// logs/shard-I.out.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kforge::slurm {

struct SbatchOptions {
  std::string partition, account, time;  // empty: the cluster's default
  int gpus_per_node = 0;                 // 0: none asked for
  std::vector<std::string> extra;        // more #SBATCH lines' options, as given ("--qos=high")
};

struct Study {
  std::filesystem::path folder;      // absolute
  std::vector<std::string> command;  // kforge's arguments after the global ones: {"eval", ...}
  int shards = 1;
  std::vector<std::string> jobs;     // the job ids submitted, first to last
};

// The job array's script: each task runs `kforge_binary --db folder/shard-I.db COMMAND --shard
// I/N`, writes its exit status to shard-I.exit, and asks to be requeued if preempted.
std::string sbatch_script(const Study& study, const SbatchOptions& options, const std::string& kforge_binary);

void save(const Study& study);
Study load(const std::filesystem::path& folder);  // throws kforge::Error when it is no study folder

// One shard as the queue and its own files show it.
struct ShardState {
  int index = 0;
  std::string state;  // done, failed (exit N), pending, running, lost (not queued, no exit status), ...
  std::optional<int> exit_code;
  long long evaluations = 0;  // in its store so far
};
// `queued` maps an array task to Slurm's state for it (squeue's %T), from the study's jobs.
std::vector<ShardState> shard_states(const Study& study, const std::vector<std::pair<int, std::string>>& queued);

// A word a shell reads back as exactly `text`.
std::string shell_quoted(const std::string& text);

}  // namespace kforge::slurm
