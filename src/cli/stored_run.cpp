#include "cli/stored_run.hpp"

#include <filesystem>

#include "common/errors.hpp"

namespace kforge::cli {

void require_database(const std::string& db_path) {
  if (!std::filesystem::exists(db_path)) throw Error(db_path + ": no such database (run `kforge eval` first)");
}

StoredRun read_stored_run(Store& store, const std::string& db_path, int64_t run_id) {
  StoredRun run{run_id, {}};
  if (run.id == 0) {
    auto latest = store.latest_run();
    if (!latest) throw Error(db_path + ": holds no run yet");
    run.id = *latest;
  }
  run.records = store.run_evaluations(run.id);
  if (run.records.empty())
    throw UsageError("run " + std::to_string(run.id) + " does not exist or has no evaluations (see `kforge report --runs`)");
  return run;
}

}  // namespace kforge::cli
