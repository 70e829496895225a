// kforge serve and kforge eval --server through the real binary, a real Unix socket and a real
// CPU worker: verdicts as without the server, one worker start for several evaluations, a
// crashed worker replaced, and the errors a user meets (no server, a second server, a mismatch).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// `kforge serve` in the background, its stderr in a file; stopped with SIGTERM.
class BackgroundServer {
 public:
  BackgroundServer(const std::string& socket, const std::string& log) : log_(log) {
    pid_ = ::fork();
    if (pid_ == 0) {
      int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::execl(KFORGE_BINARY, KFORGE_BINARY, "serve", "--device", "cpu", "--socket", socket.c_str(), nullptr);
      ::_exit(127);
    }
  }
  ~BackgroundServer() { stop(); }
  // Waits for "listening" in its log (a worker start: seconds).
  bool wait_ready(std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      if (read_file(log_).find("listening at") != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  int stop() {
    if (pid_ <= 0) return status_;
    ::kill(pid_, SIGTERM);
    int st = 0;
    ::waitpid(pid_, &st, 0);
    pid_ = -1;
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return status_;
  }
  std::string log() const { return read_file(log_); }

 private:
  std::string log_;
  pid_t pid_ = -1;
  int status_ = -1;
};

const std::vector<std::string> kQuick{"--max-time", "0.3", "--min-time", "0", "--min-samples", "5",
                                      "--timeout", "30", "--json", "--force"};

CommandResult eval_served(const TempDir& dir, const std::string& socket, const std::vector<std::string>& candidates) {
  std::vector<std::string> args{"--db", dir.file("k.db"), "eval", "--server", "--socket", socket};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.insert(args.end(), {"--problem", source_path("tests/problems/level1/1_Tiny_Add_ReLU.py")});
  for (const auto& c : candidates) args.push_back(source_path("tests/candidates/" + c));
  return run_kforge(args);
}

TEST(Serve, EvaluationsShareOneWarmWorkerThatOutlivesACrash) {
  TempDir dir;
  const std::string socket = dir.file("serve.sock");
  BackgroundServer server(socket, dir.file("serve.log"));
  ASSERT_TRUE(server.wait_ready(std::chrono::seconds(120))) << server.log();

  auto first = eval_served(dir, socket, {"correct.py", "forward_raises.py"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto lines = first.json_lines();
  ASSERT_EQ(lines.size(), 2u) << first.out;
  EXPECT_EQ(lines[0].at("verdict"), "correct") << lines[0].dump();
  EXPECT_EQ(lines[1].at("verdict"), "runtime_error") << lines[1].dump();

  // A crash kills the candidate's own process only; the served worker goes on with the next job.
  auto crash = eval_served(dir, socket, {"segfault.py", "correct.py"});
  ASSERT_EQ(crash.exit_code, 0) << crash.err;
  lines = crash.json_lines();
  ASSERT_EQ(lines.size(), 2u) << crash.out;
  EXPECT_EQ(lines[0].at("verdict"), "crashed") << lines[0].dump();
  EXPECT_EQ(lines[1].at("verdict"), "correct") << lines[1].dump();

  auto again = eval_served(dir, socket, {"correct.py"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  ASSERT_EQ(again.json_lines().size(), 1u) << again.out;
  EXPECT_EQ(again.json_lines()[0].at("verdict"), "correct");

  EXPECT_EQ(server.stop(), 0) << server.log();
  const std::string log = server.log();
  // One start when the server came up; every evaluation reused it, the crash's included.
  EXPECT_EQ(count_of(log, "worker ready"), 1u) << log;
  EXPECT_EQ(count_of(log, "worker restarted"), 0u) << log;
  EXPECT_EQ(count_of(log, "-> correct"), 3u) << log;
  EXPECT_NE(log.find("stopped"), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(socket)) << "the socket outlived its server";
}

TEST(Serve, ErrorsSayWhatToDo) {
  TempDir dir;
  const std::string socket = dir.file("serve.sock");
  auto none = eval_served(dir, socket, {"correct.py"});
  EXPECT_NE(none.exit_code, 0);
  EXPECT_NE(none.err.find("no kforge serve answers at " + socket), std::string::npos) << none.err;

  BackgroundServer server(socket, dir.file("serve.log"));
  ASSERT_TRUE(server.wait_ready(std::chrono::seconds(120))) << server.log();
  auto second = run_kforge({"serve", "--device", "cpu", "--socket", socket});
  EXPECT_NE(second.exit_code, 0);
  EXPECT_NE(second.err.find("a kforge serve already listens at " + socket), std::string::npos) << second.err;

  auto bounds = run_kforge({"--db", dir.file("k.db"), "eval", "--server", "--socket", socket, "--cpu-share", "2",
                            "--problem", "level1/19", source_path("tests/candidates/correct.py")});
  EXPECT_EQ(bounds.exit_code, 2);
  EXPECT_NE(bounds.err.find("give --host-memory and --cpu-share to kforge serve"), std::string::npos) << bounds.err;

  auto device = run_kforge({"--db", dir.file("k.db"), "eval", "--server", "--socket", socket, "--device", "cuda",
                            "--problem", "level1/19", source_path("tests/candidates/correct.py")});
  EXPECT_EQ(device.exit_code, 2);
  EXPECT_NE(device.err.find("has cpu workers"), std::string::npos) << device.err;
  EXPECT_EQ(server.stop(), 0) << server.log();
}

// A socket file that a server left when it died (bound, never unlinked, nothing listening) is
// replaced by the next server, not taken for a live one.
TEST(Serve, AStaleSocketFileIsReplaced) {
  TempDir dir;
  const std::string socket = dir.file("serve.sock");
  {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, socket.c_str(), socket.size() + 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << std::strerror(errno);
    ::close(fd);
  }
  ASSERT_TRUE(std::filesystem::exists(socket));
  BackgroundServer server(socket, dir.file("serve.log"));
  ASSERT_TRUE(server.wait_ready(std::chrono::seconds(120))) << server.log();
  auto served = eval_served(dir, socket, {"correct.py"});
  EXPECT_EQ(served.exit_code, 0) << served.err;
  EXPECT_EQ(server.stop(), 0) << server.log();
}

}  // namespace
}  // namespace kforge::testing
