#pragma once
// What `kforge problems lint` and `kforge problems info` share: choosing the problems, and running
// one of the worker's Python tools (python/kforge_lint.py, python/kforge_metadata.py) over them.
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "suite/problem.hpp"

namespace kforge::cli {

struct ChosenProblems {
  std::filesystem::path dir;  // the suite's folder
  SuiteLoad suite;
  std::vector<Problem> problems;  // the ids or files given, else the whole suite
};

// Throws UsageError for an unknown id or an empty suite.
ChosenProblems choose_problems(const std::string& suite_dir, const std::vector<std::string>& specs);

// Drops the multi-rank problems from `problems`, with a note for each ("...; not <done>"), for a
// command that does not `what` them yet; a UsageError when none is left.
void leave_out_multi_rank(std::vector<Problem>& problems, const std::string& what, const std::string& done);

// The device a tool runs on for `--device auto|cpu|cuda`: auto is cuda when a GPU is present.
// Throws UsageError for another value, Error for cuda without a GPU.
std::string tool_device(const std::string& asked);

// Runs `python <worker module dir>/<script> args...` with the worker's Python and returns its
// JSON lines, in order: the objects whose `key` is a string (torch's warnings on the same stream,
// and any line of its that happens to start with a brace, are skipped). `on_line`, when given,
// gets each line as soon as the tool prints it: a run stopped part-way (timeout, Ctrl-C) keeps
// what was already stored and shown. `failure` says how the process ended when it did not exit 0
// ("timed out", or "exit 1: " and the last line it printed that was not a result).
std::vector<nlohmann::json> run_problem_tool(const std::string& script, const std::vector<std::string>& args,
                                             std::chrono::seconds timeout, std::string& failure,
                                             const std::function<void(const nlohmann::json&)>& on_line = {},
                                             const std::string& key = "problem");

// Those lines by their "problem" field.
std::map<std::string, nlohmann::json> by_problem(const std::vector<nlohmann::json>& lines);

// The torch version of the worker's Python (what stored figures are keyed by).
std::string worker_torch_version();

// What a stored measurement is keyed by besides the problem: the device's name ("cpu" on the CPU,
// as the tools' hardware field says) and torch's version, from the worker's Python.
struct ToolIdentity {
  std::string hardware, torch;
};
ToolIdentity tool_identity(const std::string& device);

}  // namespace kforge::cli
