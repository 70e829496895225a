#include "cli/stored_run.hpp"

#include <filesystem>

#include "common/errors.hpp"

namespace kforge::cli {

void require_database(const std::string& db_path) {
  if (!std::filesystem::exists(db_path)) throw Error(db_path + ": no such database (run `kforge eval` first)");
}

StoredRun read_stored_run(Store& store, const std::string& db_path, const std::string& id_or_name) {
  StoredRun run{resolve_run(store, db_path, id_or_name), {}};
  run.records = store.run_evaluations(run.id);
  if (run.records.empty())
    throw UsageError("run " + std::to_string(run.id) + " does not exist or has no evaluations (see `kforge runs`)");
  return run;
}

size_t append_run_gaps(Store& store, int64_t run_id, std::vector<EvaluationRecord>& records) {
  const auto gaps = store.run_gaps(run_id);
  for (const auto& g : gaps) {
    EvaluationRecord r;
    r.problem_name = g.problem_name;
    r.candidate_name = g.candidate_name;
    r.level = g.level;
    r.problem_id = g.problem_id;
    r.verdict = Verdict::load_error;
    r.message = g.outcome == "load_error" ? g.message : "no candidate: the generation ended " + g.outcome +
                                                             (g.message.empty() ? "" : " (" + g.message + ")");
    if (!records.empty()) {
      r.device = records.front().device;
      r.device_name = records.front().device_name;
    }
    records.push_back(std::move(r));
  }
  return gaps.size();
}

int64_t resolve_run(Store& store, const std::string& db_path, const std::string& id_or_name) {
  if (id_or_name.empty() || id_or_name == "0") {
    auto latest = store.latest_run();
    if (!latest) throw Error(db_path + ": holds no run yet");
    return *latest;
  }
  if (auto run = store.find_run(id_or_name)) return *run;
  throw UsageError("no run is named or numbered '" + id_or_name + "' in " + db_path + " (see `kforge runs`)");
}

}  // namespace kforge::cli
