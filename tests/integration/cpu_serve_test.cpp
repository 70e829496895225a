// kforge serve and kforge eval --server through the real binary, a real Unix socket and a real
// CPU worker: verdicts as without the server, one worker start for several evaluations, a
// crashed worker replaced, the errors a user meets (no server, a second server, a mismatch), and
// clients without the server's token (a candidate's process among them) refused.
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
#include "support/scoped_env.hpp"
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

// An agent's attempts at one problem come as runs of their own through the same served worker,
// each run's last job followed by nothing the run knows of: its reference twins are kept for
// whatever comes next, and the next run's attempt at the problem is timed against them, not
// against twins started anew (worker/reference_twin.hpp, EvalJob::next_job_same_problem).
TEST(Serve, TheNextRunsAttemptAtAProblemFindsItsTwinsKept) {
  TempDir dir;
  ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
  ScopedEnv trace("KFORGE_WORKER_PHASE_TRACE", "1");
  const std::string socket = dir.file("serve.sock");
  BackgroundServer server(socket, dir.file("serve.log"));
  ASSERT_TRUE(server.wait_ready(std::chrono::seconds(120))) << server.log();
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto r = eval_served(dir, socket, {"correct.py"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(r.json_lines().size(), 1u) << r.out;
    EXPECT_EQ(r.json_lines()[0].at("verdict"), "correct") << r.out;
  }
  EXPECT_EQ(server.stop(), 0) << server.log();
  const std::string log = read_file(dir.file("cache") + "/kforge/logs/worker-cpu.log");
  const std::vector<std::string> traces = phase_traces(log);
  ASSERT_EQ(traces.size(), 2u) << log;
  EXPECT_EQ(traces[0].find("twin_end="), std::string::npos) << traces[0];
  // Kept unless the first attempt found them apart (its log line says so before its trace).
  if (log_by_evaluation(log)[0].find("twins came") == std::string::npos) {
    EXPECT_NE(traces[1].find("load_twin_kept="), std::string::npos) << log;
  }
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

// A frame's bytes on the socket: 4-byte little-endian length, then the JSON (protocol/frame.hpp),
// written by hand so that the test does not share kforge's client code.
std::string raw_exchange(const std::string& socket, const std::string& json) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, socket.c_str(), socket.size() + 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "no connection";
  }
  const uint32_t n = static_cast<uint32_t>(json.size());
  const unsigned char length[4] = {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                                   static_cast<unsigned char>(n >> 16), static_cast<unsigned char>(n >> 24)};
  std::string frame(reinterpret_cast<const char*>(length), 4);
  frame += json;
  if (::write(fd, frame.data(), frame.size()) != static_cast<ssize_t>(frame.size())) {
    ::close(fd);
    return "write failed";
  }
  std::string answer;
  char buffer[4096];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) {
    answer.append(buffer, static_cast<size_t>(got));
    if (answer.size() >= 4) {
      const auto* p = reinterpret_cast<const unsigned char*>(answer.data());
      const size_t want = 4 + (p[0] | p[1] << 8 | p[2] << 16 | static_cast<size_t>(p[3]) << 24);
      if (answer.size() >= want) break;
    }
  }
  ::close(fd);
  return answer.size() > 4 ? answer.substr(4) : answer;
}

// Every request must carry the token the server wrote beside its socket for this user's kforge:
// a candidate's process runs as the same user and can reach the socket, and a job it sent would
// run a "problem" of its own in the server's reference process (every file of the user's readable
// there, and the next jobs judged there).
TEST(Serve, AClientWithoutTheTokenIsRefused) {
  TempDir dir;
  const std::string socket = dir.file("serve.sock");
  BackgroundServer server(socket, dir.file("serve.log"));
  ASSERT_TRUE(server.wait_ready(std::chrono::seconds(120))) << server.log();
  const std::string token_file = socket + ".token";
  ASSERT_TRUE(std::filesystem::exists(token_file));
  EXPECT_EQ(std::filesystem::status(token_file).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const std::string token = read_file(token_file);
  for (const std::string& request : {std::string(R"({"type":"status"})"), std::string(R"({"type":"lease"})"),
                                     std::string(R"({"type":"status","token":"0000"})")}) {
    const std::string answer = raw_exchange(socket, request);
    EXPECT_NE(answer.find(R"("type":"error")"), std::string::npos) << request << " -> " << answer;
    EXPECT_EQ(answer.find("workers"), std::string::npos) << request << " -> " << answer;
  }
  const std::string shown = raw_exchange(socket, R"({"type":"status","token":")" + token + R"("})");
  EXPECT_NE(shown.find(R"("type":"status")"), std::string::npos) << shown;
  EXPECT_EQ(server.stop(), 0) << server.log();
  EXPECT_NE(server.log().find("refused a client that did not show the token"), std::string::npos) << server.log();
  EXPECT_FALSE(std::filesystem::exists(token_file)) << "the token outlived its server";
}

// The same from a candidate that the server itself evaluates: it finds the socket, cannot read the
// token, is refused, and computes the honest answer (before session 35 it got the server's status,
// and a lease of any idle worker).
TEST(Serve, ACandidateCannotUseTheServerThatEvaluatesIt) {
  TempDir dir;
  const std::string socket = dir.file("serve.sock");
  BackgroundServer server(socket, dir.file("serve.log"));
  ASSERT_TRUE(server.wait_ready(std::chrono::seconds(120))) << server.log();
  const std::string candidate = dir.write("reach_the_server.py", R"(import json
import socket
import struct

import torch
import torch.nn as nn

SOCKET = ")" + socket + R"("


def ask(request):
    try:
        token = open(SOCKET + ".token").read()
        request["token"] = token
    except OSError:
        token = None
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    try:
        s.connect(SOCKET)
        body = json.dumps(request).encode()
        s.sendall(struct.pack("<I", len(body)) + body)
        head = s.recv(4)
        if len(head) < 4:
            return token, "closed"
        n = struct.unpack("<I", head)[0]
        data = b""
        while len(data) < n:
            part = s.recv(n - len(data))
            if not part:
                break
            data += part
        return token, json.loads(data).get("type")
    except OSError as e:
        return token, type(e).__name__
    finally:
        s.close()


class ModelNew(nn.Module):
    def forward(self, a, b):
        token, answer = ask({"type": "status"})
        if token is not None or answer not in ("error", "closed", "PermissionError", "ConnectionRefusedError"):
            raise RuntimeError(f"REACHED token={token} answer={answer}")
        return torch.relu(a + b)
)");
  std::vector<std::string> args{"--db", dir.file("k.db"), "eval", "--server", "--socket", socket};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.insert(args.end(), {"--problem", source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"), candidate});
  auto r = run_kforge(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0].at("verdict"), "correct") << lines[0].dump();
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
