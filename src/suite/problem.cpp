#include "suite/problem.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/sha256.hpp"

namespace kforge {

std::string Problem::display_name() const {
  std::string stem = path.stem().string();
  return level > 0 ? "level" + std::to_string(level) + "/" + stem : stem;
}

std::optional<std::pair<int, std::string>> parse_problem_file_name(const std::string& file_name) {
  static const std::regex pattern(R"(^(\d+)_(.+)\.py$)");
  std::smatch m;
  if (!std::regex_match(file_name, m, pattern)) return std::nullopt;
  return std::pair{std::stoi(m[1]), m[2].str()};
}

std::optional<int> parse_level_dir(const std::string& dir_name) {
  static const std::regex pattern(R"(^level(\d+)$)");
  std::smatch m;
  if (!std::regex_match(dir_name, m, pattern)) return std::nullopt;
  return std::stoi(m[1]);
}

std::optional<std::string> problem_format_error(const std::string& source) {
  struct Need {
    const char* what;
    std::regex pattern;
  };
  static const Need needs[] = {
      {"class Model", std::regex(R"((^|\n)class\s+Model\s*[(:])")},
      {"def get_inputs()", std::regex(R"((^|\n)def\s+get_inputs\s*\()")},
      {"def get_init_inputs()", std::regex(R"((^|\n)def\s+get_init_inputs\s*\()")},
  };
  std::string missing;
  for (const auto& need : needs)
    if (!std::regex_search(source, need.pattern)) missing += (missing.empty() ? "" : ", ") + std::string(need.what);
  if (missing.empty()) return std::nullopt;
  return "not a KernelBench problem: no module-level " + missing;
}

std::string declared_precision(const std::string& source) {
  static const std::regex declaration(R"((?:^|\n)precision\s*=\s*["']([^"']*)["'])");
  std::smatch m;
  if (!std::regex_search(source, m, declaration)) return "";
  std::string value = m[1];
  if (value != "fp32" && value != "fp16" && value != "bf16")
    throw Error("declares precision = \"" + value + "\"; kforge knows fp32, fp16 and bf16");
  return value;
}

bool declares_training(const std::string& source) {
  static const std::regex declaration(R"((?:^|\n)mode\s*=\s*["']train["'])");
  return std::regex_search(source, declaration);
}

int declared_world_size(const std::string& source) {
  static const std::regex declaration(R"((?:^|\n)world_size\s*=\s*([^\s#]+))");
  std::smatch m;
  if (!std::regex_search(source, m, declaration)) return 1;
  const std::string value = m[1];
  if (!std::regex_match(value, std::regex("[0-9]{1,2}")) || std::stoi(value) < 1 || std::stoi(value) > 64)
    throw Error("declares world_size = " + value + "; a problem declares a whole number of ranks, 1 to 64");
  return std::stoi(value);
}

std::string multi_rank_unsupported(const Problem& problem, const std::string& what) {
  return problem.display_name() + " is a multi-rank problem (world_size = " + std::to_string(problem.world_size) +
         "): kforge does not " + what + " those yet; `kforge problems lint` checks the problem itself";
}

Problem load_problem_file(const std::filesystem::path& path) {
  Problem p;
  std::error_code ec;
  p.path = std::filesystem::weakly_canonical(path, ec);
  if (ec) p.path = std::filesystem::absolute(path);
  if (!std::filesystem::exists(p.path)) throw Error(path.string() + ": no such problem file");
  p.source = read_source_file(p.path);
  p.hash = sha256_hex(p.source);
  try {
    p.precision = declared_precision(p.source);
    p.training = declares_training(p.source);
    p.world_size = declared_world_size(p.source);
  } catch (const Error& e) {
    throw Error(p.path.string() + ": " + e.what());
  }
  if (auto parsed = parse_problem_file_name(p.path.filename().string())) {
    p.id = parsed->first;
    p.name = parsed->second;
  } else {
    p.name = p.path.stem().string();
  }
  if (auto level = parse_level_dir(p.path.parent_path().filename().string())) p.level = *level;
  return p;
}

SuiteLoad load_suite(const std::filesystem::path& root) {
  SuiteLoad suite;
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) throw Error(root.string() + ": no such suite folder");
  std::vector<std::filesystem::path> level_dirs;
  for (const auto& entry : std::filesystem::directory_iterator(root, ec))
    if (entry.is_directory() && parse_level_dir(entry.path().filename().string())) level_dirs.push_back(entry.path());

  for (const auto& dir : level_dirs) {
    std::map<int, std::string> seen_ids;  // id -> first file with it
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      std::string name = file.filename().string();
      // A level folder's own documentation (level5/README.md) is expected there, not a stray file.
      if (name == "__init__.py" || name.starts_with('.') || file.extension() == ".md") continue;
      std::string where = dir.filename().string() + "/" + name;
      if (file.extension() != ".py") {
        suite.errors.push_back(where + ": not a Python file; skipped");
        continue;
      }
      auto parsed = parse_problem_file_name(name);
      if (!parsed) {
        suite.errors.push_back(where + ": name is not <id>_<Name>.py; skipped");
        continue;
      }
      if (auto it = seen_ids.find(parsed->first); it != seen_ids.end()) {
        suite.errors.push_back(where + ": duplicate id " + std::to_string(parsed->first) + " (also " +
                               it->second + "); skipped");
        continue;
      }
      try {
        suite.problems.push_back(load_problem_file(file));
        seen_ids[parsed->first] = name;
      } catch (const Error& e) {
        suite.errors.push_back(where + ": " + e.what());
      }
    }
  }
  std::sort(suite.problems.begin(), suite.problems.end(), [](const Problem& a, const Problem& b) {
    return std::tie(a.level, a.id) < std::tie(b.level, b.id);
  });
  return suite;
}

Problem resolve_problem(const std::string& spec, const SuiteLoad& builtin) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec, ec)) return load_problem_file(spec);
  static const std::regex id_pattern(R"(^level(\d+)/(\d+)(_.*)?$)");
  std::smatch m;
  if (std::regex_match(spec, m, id_pattern)) {
    int level = std::stoi(m[1]), id = std::stoi(m[2]);
    for (const auto& p : builtin.problems)
      if (p.level == level && p.id == id) return p;
    throw UsageError("no built-in problem " + spec + " (see `kforge problems list`)");
  }
  throw UsageError("problem '" + spec + "' is neither a file nor a built-in id like level1/19");
}

std::vector<Problem> resolve_problems(const std::string& spec, const SuiteLoad& builtin) {
  static const std::regex range_pattern(R"(^level(\d+)/(\d+)-(\d+)$)");
  std::smatch m;
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec, ec) || !std::regex_match(spec, m, range_pattern))
    return {resolve_problem(spec, builtin)};
  const int level = std::stoi(m[1]), first = std::stoi(m[2]), last = std::stoi(m[3]);
  if (first > last) throw UsageError("problem range " + spec + " runs backwards (write level" + m[1].str() + "/" +
                                     m[3].str() + "-" + m[2].str() + ")");
  std::vector<Problem> out;
  for (const auto& p : builtin.problems)
    if (p.level == level && p.id >= first && p.id <= last) out.push_back(p);
  std::sort(out.begin(), out.end(), [](const Problem& a, const Problem& b) { return a.id < b.id; });
  if (out.empty()) throw UsageError("no problem of the suite in " + spec + " (see `kforge problems list`)");
  return out;
}

std::filesystem::path builtin_suite_dir() {
  if (const char* env = std::getenv("KFORGE_PROBLEMS"); env && *env) return env;
  return KFORGE_SOURCE_DIR "/problems";
}

}  // namespace kforge
