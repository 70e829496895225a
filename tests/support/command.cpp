#include "support/command.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "support/temp_dir.hpp"

extern char** environ;

namespace kforge::testing {

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<nlohmann::json> CommandResult::json_lines() const {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded()) lines.push_back(std::move(j));
  }
  return lines;
}

std::map<std::string, nlohmann::json> CommandResult::lines_by_candidate() const {
  std::map<std::string, nlohmann::json> by_file;
  for (auto& line : json_lines()) {
    const std::string path = line.at("candidate");
    by_file[path.substr(path.find_last_of('/') + 1)] = std::move(line);
  }
  return by_file;
}

CommandResult run_command(const std::vector<std::string>& argv, const std::string& cwd) {
  TempDir capture;
  std::string out_path = capture.file("stdout"), err_path = capture.file("stderr");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  CommandResult result;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) {
    result.err = "cannot spawn " + argv[0];
    return result;
  }
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_whole_file(out_path);
  result.err = read_whole_file(err_path);
  return result;
}

CommandResult run_kforge(const std::vector<std::string>& args, const std::string& cwd) {
  std::vector<std::string> argv{KFORGE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, cwd);
}

std::string source_path(const std::string& relative) { return std::string(KFORGE_TEST_SOURCE_DIR) + "/" + relative; }

std::vector<std::string> phase_traces(const std::string& worker_log) {
  std::vector<std::string> lines;
  for (const std::string& piece : log_by_evaluation(worker_log)) lines.push_back(piece.substr(piece.rfind("phase trace: ")));
  return lines;
}

std::vector<std::string> log_by_evaluation(const std::string& worker_log) {
  std::vector<std::string> pieces;
  size_t from = 0;
  for (size_t at = worker_log.find("phase trace: "); at != std::string::npos; at = worker_log.find("phase trace: ", at + 1)) {
    const size_t end = std::min(worker_log.find('\n', at), worker_log.size());
    pieces.push_back(worker_log.substr(from, end - from));
    from = end;
  }
  return pieces;
}

}  // namespace kforge::testing
