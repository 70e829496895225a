#include "slurm/study.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "store/sqlite.hpp"

namespace kforge::slurm {

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string sbatch_script(const Study& study, const SbatchOptions& o, const std::string& kforge_binary) {
  const std::string folder = study.folder.string();
  std::string s = "#!/bin/bash\n";
  s += "# Written by kforge slurm submit: one task per shard of the study in " + folder + ".\n";
  s += fmt::format("#SBATCH --job-name=kforge-{}\n", study.folder.filename().string());
  s += fmt::format("#SBATCH --array=0-{}\n", study.shards - 1);
  s += "#SBATCH --output=" + folder + "/logs/shard-%a.out\n";
  s += "#SBATCH --requeue\n";  // preempted: run again; the shard's store keeps what it finished
  if (!o.partition.empty()) s += "#SBATCH --partition=" + o.partition + "\n";
  if (!o.account.empty()) s += "#SBATCH --account=" + o.account + "\n";
  if (!o.time.empty()) s += "#SBATCH --time=" + o.time + "\n";
  if (o.gpus_per_node > 0) s += fmt::format("#SBATCH --gpus-per-node={}\n", o.gpus_per_node);
  for (const auto& e : o.extra) s += "#SBATCH " + e + "\n";
  s += "set -u\n";
  s += "i=\"$SLURM_ARRAY_TASK_ID\"\n";
  s += "rm -f " + shell_quoted(folder) + "/shard-\"$i\".exit\n";
  s += shell_quoted(kforge_binary) + " --db " + shell_quoted(folder) + "/shard-\"$i\".db";
  for (const auto& a : study.command) s += " " + shell_quoted(a);
  s += fmt::format(" --shard \"$i\"/{}\n", study.shards);
  s += "rc=$?\n";
  s += "echo \"$rc\" > " + shell_quoted(folder) + "/shard-\"$i\".exit\n";
  s += "exit \"$rc\"\n";
  return s;
}

void save(const Study& study) {
  nlohmann::json j = {{"command", study.command}, {"shards", study.shards}, {"jobs", study.jobs}};
  write_file_atomically(study.folder / "study.json", j.dump(2) + "\n");
}

Study load(const std::filesystem::path& folder) {
  const auto file = folder / "study.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw Error(folder.string() + ": no kforge study here (no study.json; kforge slurm submit makes one)");
  const auto j = nlohmann::json::parse(read_file(file), nullptr, false);
  if (!j.is_object() || !j.contains("command") || !j.contains("shards") || !j["shards"].is_number_integer())
    throw Error(file.string() + ": not a study kforge wrote");
  Study s;
  s.folder = std::filesystem::absolute(folder);
  s.command = j["command"].get<std::vector<std::string>>();
  s.shards = j["shards"].get<int>();
  if (j.contains("jobs")) s.jobs = j["jobs"].get<std::vector<std::string>>();
  return s;
}

namespace {

long long evaluations_in(const std::filesystem::path& db) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db, ec)) return 0;
  try {
    sqlite::Database d(db);
    auto s = d.prepare("SELECT count(*) FROM run_evaluations");
    return s.step() ? s.int_at(0) : 0;
  } catch (const std::exception&) {
    return 0;  // being written by its task, or not a store yet
  }
}

}  // namespace

std::vector<ShardState> shard_states(const Study& study, const std::vector<std::pair<int, std::string>>& queued) {
  std::vector<ShardState> out;
  for (int i = 0; i < study.shards; ++i) {
    ShardState s;
    s.index = i;
    s.evaluations = evaluations_in(study.folder / fmt::format("shard-{}.db", i));
    std::string slurm_state;
    for (const auto& [task, state] : queued)
      if (task == i) slurm_state = state;
    std::error_code ec;
    const auto exit_file = study.folder / fmt::format("shard-{}.exit", i);
    if (!slurm_state.empty()) {
      s.state = slurm_state == "PENDING" ? "pending" : slurm_state == "RUNNING" ? "running" : slurm_state;
    } else if (std::filesystem::is_regular_file(exit_file, ec)) {
      try {
        s.exit_code = std::stoi(read_file(exit_file));
      } catch (const std::exception&) {
        s.exit_code = -1;
      }
      s.state = *s.exit_code == 0 ? "done" : fmt::format("failed (exit {})", *s.exit_code);
    } else {
      s.state = "lost";  // not queued and no exit status: cancelled, preempted without requeue, its node gone
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace kforge::slurm
