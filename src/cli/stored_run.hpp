#pragma once
// What `report` and `export` share: opening an existing store and reading one of its runs.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/evaluation.hpp"
#include "store/store.hpp"

namespace kforge::cli {

struct StoredRun {
  int64_t id = 0;
  std::vector<EvaluationRecord> records;  // never empty
};

// The run named or numbered `id_or_name` ("" or "0": the latest) of the database at `db_path`,
// through resolve_run. Throws kforge::Error when the file holds no run (nothing is created),
// UsageError for an unknown run or one without evaluations.
StoredRun read_stored_run(Store& store, const std::string& db_path, const std::string& id_or_name);

// The run named or numbered `id_or_name` ("" or "0": the latest run with evaluations). Throws
// UsageError naming `kforge runs` when there is none such.
int64_t resolve_run(Store& store, const std::string& db_path, const std::string& id_or_name);

// Throws kforge::Error without creating the file when it does not exist.
void require_database(const std::string& db_path);

// Appends what run `run_id` was asked to judge and never evaluated (run_gaps) as load_error
// records that say what happened: failures in its fast_p. Returns how many.
size_t append_run_gaps(Store& store, int64_t run_id, std::vector<EvaluationRecord>& records);

// The runs as `kforge runs` (and `kforge report --runs`) lists them.
void print_runs(std::ostream& out, const std::vector<RunInfo>& runs);

}  // namespace kforge::cli
