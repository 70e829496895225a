#pragma once
// Runs the real kforge binary (or any command) for tests, capturing its output and exit status.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kforge::testing {

struct CommandResult {
  int exit_code = -1;  // 128 + signal when killed by one
  std::string out;
  std::string err;
  // stdout split into lines and parsed as JSON (the --json mode); non-JSON lines are skipped.
  std::vector<nlohmann::json> json_lines() const;
  // The JSON lines of `kforge eval --json` by their candidate's file name (its last path part).
  std::map<std::string, nlohmann::json> lines_by_candidate() const;
};

CommandResult run_command(const std::vector<std::string>& argv, const std::string& cwd = "");
CommandResult run_kforge(const std::vector<std::string>& args, const std::string& cwd = "");

std::string source_path(const std::string& relative);  // a file of the source tree

// A file's whole content, bytes as they are (empty where it cannot be read): a problem's text, a
// worker's log, a store's bytes.
std::string read_whole_file(const std::string& path);

// The phase-trace lines of a worker's log (KFORGE_WORKER_PHASE_TRACE=1), one per evaluation in the
// order they ran, each from "phase trace: " to its line's end.
std::vector<std::string> phase_traces(const std::string& worker_log);

// The same log cut into one piece per evaluation: what it wrote from the end of the last one's
// phase trace to the end of its own (the trace last), so a test can tell which job a line is of
// ("the reference's twins came ... apart").
std::vector<std::string> log_by_evaluation(const std::string& worker_log);

}  // namespace kforge::testing
