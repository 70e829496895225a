#include "agent/warm_workers.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "common/errors.hpp"
#include "common/parent_death.hpp"
#include "pool/worker_process.hpp"
#include "serve/serve_messages.hpp"

namespace kforge::agent {

WarmWorkers::WarmWorkers(const std::string& device, const std::filesystem::path& log) {
  // Under /tmp, not $TMPDIR: a socket's path must stay under 108 bytes. One a killed agent left
  // behind is removed by the next (make_owned_folder).
  dir_ = make_owned_folder("/tmp", "agent");
  socket_ = dir_ / "serve.sock";
  std::filesystem::create_directories(log.parent_path());
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) throw Error(log.string() + ": cannot open the agent's worker log");
  std::vector<std::string> args{"kforge", "serve", "--device", device, "--socket", socket_.string()};
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) {
    ::close(log_fd);
    throw Error("cannot start the agent's workers (fork failed)");
  }
  if (pid_ == 0) {
    // Dies with the agent, killed or not: its workers with it (they watch the server).
    die_with_parent(parent, SIGTERM, 1);
    ::dup2(log_fd, 1);
    ::dup2(log_fd, 2);
    ::setpgid(0, 0);  // a Ctrl-C at the terminal is the agent's to handle; it stops the server itself
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv("/proc/self/exe", argv.data());
    ::_exit(127);
  }
  ::close(log_fd);
  // The server answers once it listens; its workers start behind it (a lease waits for one).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(10);
  while (true) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw Error("the agent's workers (kforge serve) stopped before answering; see " + log.string());
    }
    try {
      serve::ServerStatus s = serve::query_status(socket_);
      config_.server = socket_;
      config_.cuda = s.device == "cuda";
      config_.worker_devices = s.labels;
      break;
    } catch (const std::exception&) {
      if (std::chrono::steady_clock::now() > deadline) throw Error("the agent's workers did not answer in 10 minutes; see " + log.string());
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

WarmWorkers::~WarmWorkers() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

ExecutorConfig WarmWorkers::leases(size_t jobs) const {
  ExecutorConfig c = config_;
  if (jobs > 0 && jobs < c.worker_devices.size()) c.worker_devices.resize(jobs);
  return c;
}

}  // namespace kforge::agent
