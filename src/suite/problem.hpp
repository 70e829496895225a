#pragma once
// Problems in the KernelBench layout: `level<N>/<id>_<Name>.py` defining Model, get_inputs and
// get_init_inputs. A suite is a folder of such level folders; kforge ships one in problems/.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kforge {

struct Problem {
  int level = 0;  // 0 when the file is not inside a level<N> folder
  int id = 0;
  std::string name;  // "ReLU"
  std::filesystem::path path;
  std::string source;
  std::string hash;  // sha256 of source
  // The precision the file declares for itself (`precision = "bf16"` at module level; level 5
  // does), or empty. kforge evaluates at it unless --precision says otherwise.
  std::string precision;
  // A training problem (`mode = "train"` at module level; level 6): forward and backward are
  // checked and timed as one step (docs/evaluation.md, "Training problems").
  bool training = false;
  // A multi-rank problem (`world_size = N` at module level, N >= 2; level 7): its model runs as N
  // processes, one per rank (python/kforge_ranks.py). `kforge problems lint` checks it; candidates
  // on it are not evaluated yet (docs/suite.md, "Multi-rank problems").
  int world_size = 1;

  std::string file_name() const { return path.filename().string(); }  // "19_ReLU.py"
  // The precision it is evaluated at when --precision does not say: the declared one, else fp32.
  std::string default_precision() const { return precision.empty() ? "fp32" : precision; }
  // "level1/19_ReLU": what tables and JSON show.
  std::string display_name() const;
};

// "19_ReLU.py" -> {19, "ReLU"}; empty when the name does not have the shape.
std::optional<std::pair<int, std::string>> parse_problem_file_name(const std::string& file_name);
// "level3" -> 3
std::optional<int> parse_level_dir(const std::string& dir_name);

// What a problem file lacks of the KernelBench format, or empty when it has it all. A static
// check (definitions at module level), so a broken problem is named before any worker starts.
std::optional<std::string> problem_format_error(const std::string& source);

// The precision a problem's source declares: "fp32", "fp16" or "bf16" from a module-level
// `precision = "..."`, empty when it declares none. Throws kforge::Error for another value.
std::string declared_precision(const std::string& source);

// Whether a problem's source sets `mode = "train"` at module level (the worker reads the module's
// attribute; this reads the text, for what is decided before a worker runs: prompts, tables).
bool declares_training(const std::string& source);

// The ranks a problem's source declares with a module-level `world_size = N`: 1 when it declares
// none. Throws kforge::Error for a value that is not a whole number from 1 to 64.
int declared_world_size(const std::string& source);

// What a command says of a multi-rank problem it leaves out: `what` is what kforge does not do for
// those yet ("evaluate candidates on", "measure baselines of", "derive metadata of").
std::string multi_rank_unsupported(const Problem& problem, const std::string& what);

// Reads one problem file. Throws kforge::Error for an unreadable file or a malformed name.
Problem load_problem_file(const std::filesystem::path& path);

struct SuiteLoad {
  std::vector<Problem> problems;    // sorted by level, then id
  std::vector<std::string> errors;  // one line per file that could not be used, with the reason
};

// Every `level<N>/<id>_<Name>.py` under `root`. Files that cannot be used (unreadable, bad name,
// not Python, a duplicate id within a level) are reported in `errors`; the rest still load.
SuiteLoad load_suite(const std::filesystem::path& root);

// PROBLEM as the CLI takes it: a file path, or a built-in id "level1/19" looked up in `builtin`.
// Throws kforge::UsageError when it names nothing.
Problem resolve_problem(const std::string& spec, const SuiteLoad& builtin);

// As resolve_problem, and also a range of ids of one level, `level1/1-10` (both ends included):
// the suite's problems in it, in id order. A range that holds none is a usage error.
std::vector<Problem> resolve_problems(const std::string& spec, const SuiteLoad& builtin);

// The built-in suite's folder: $KFORGE_PROBLEMS, else the problems/ folder of the source tree
// this binary was built from.
std::filesystem::path builtin_suite_dir();

}  // namespace kforge
