#pragma once
// What `report` and `export` share: opening an existing store and reading one of its runs.
#include <cstdint>
#include <string>
#include <vector>

#include "core/evaluation.hpp"
#include "store/store.hpp"

namespace kforge::cli {

struct StoredRun {
  int64_t id = 0;
  std::vector<EvaluationRecord> records;  // never empty
};

// The run `run_id` (0: the latest) of the database at `db_path`. Throws kforge::Error when the
// file does not exist or holds no run (nothing is created), UsageError for an unknown run id.
StoredRun read_stored_run(Store& store, const std::string& db_path, int64_t run_id);

// Throws kforge::Error without creating the file when it does not exist.
void require_database(const std::string& db_path);

}  // namespace kforge::cli
