#include "build/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/capabilities.hpp"
#include "common/file_size_limit.hpp"
#include "common/landlock.hpp"
#include "common/seccomp_filter.hpp"
#include "common/parent_death.hpp"

namespace kforge::build {

namespace {

// Whether child `pid` has exited, without reaping it (its id, and its group's, stay its own until
// it is reaped). True also where it cannot be waited for at all, so no caller waits for ever.
bool has_exited(pid_t pid) {
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0) return info.si_pid == pid;
    if (errno != EINTR) return true;
  }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds timeout, size_t output_cap,
                          const std::string& cwd, const std::function<void(std::string_view)>& on_output,
                          const std::vector<std::string>* env, const Confinement& confined) {
  ProcessResult result;
  auto t0 = std::chrono::steady_clock::now();
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    result.output = std::string("cannot create a pipe: ") + std::strerror(errno);
    return result;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  if (env) {
    for (const auto& e : *env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
  }
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    result.output = std::string("cannot fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // its own group: a timeout kills the compiler's children too (cc1plus, ptxas)
    // Dies with the kforge thread that waits for it (kforge ended by SIGTERM, Ctrl-C or kill -9):
    // an orphaned problem tool (a max-autotune baseline) kept an H200 busy for minutes and every
    // candidate judged beside it was rejected for work left running. The thread that forks is the
    // one that waits, so it cannot end first while kforge lives.
    die_with_parent(parent, SIGKILL, 125);
    ::dup2(pipe_fds[1], 1);
    ::dup2(pipe_fds[1], 2);
    int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, 0);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    limit_file_size(confined.most_file_bytes);
    // A filtered run is an untrusted one: no capabilities either (as root, CAP_SYS_PTRACE reads
    // the reference process's memory through /proc, non-dumpable as it is).
    if ((confined.ruleset >= 0 && !landlock::restrict_self(confined.ruleset)) ||
        (confined.filter && (!drop_all_capabilities() || !seccomp::install_in_child(*confined.filter)))) {
      const char msg[] = "the compiler's sandbox could not be entered\n";
      [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
      ::_exit(126);
    }
    if (env) ::execvpe(args[0], args.data(), envp.data());
    else ::execvp(args[0], args.data());
    const char msg[] = "cannot execute the compiler\n";
    [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  ::close(pipe_fds[1]);
  if (confined.on_started) {
    try {
      confined.on_started(pid);
    } catch (...) {  // nothing is left running for a caller that could not watch it
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      ::close(pipe_fds[0]);
      throw;
    }
  }
  auto deadline = t0 + timeout;
  char buffer[65536];
  // Once the process itself has exited, what is already in the pipe is read and no more: a
  // background process it left holding the pipe open (a daemon of a candidate's compiler) would
  // otherwise keep the call waiting for EOF until the deadline.
  bool exited = false;
  int reads_after_exit = 0;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    if (!exited) exited = has_exited(pid);
    if (exited && ++reads_after_exit > 16) break;
    pollfd p{pipe_fds[0], POLLIN, 0};
    int ready = ::poll(&p, 1, exited ? 0 : static_cast<int>(std::min<long long>(left.count(), 100)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      if (exited) break;
      continue;
    }
    ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the process closed its output (it is exiting)
    if (on_output) try {
        on_output(std::string_view(buffer, static_cast<size_t>(n)));
      } catch (...) {  // the caller gave up: leave no process behind
        ::close(pipe_fds[0]);
        ::kill(-pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        throw;
      }
    size_t room = output_cap > result.output.size() ? output_cap - result.output.size() : 0;
    if (static_cast<size_t>(n) > room) result.truncated = true;
    result.output.append(buffer, std::min(static_cast<size_t>(n), room));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  // A process can close its output and still run: wait for it under the same deadline, without
  // reaping it, so that its group's id stays its own until the group is killed below.
  while (!result.timed_out && !has_exited(pid)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      break;
    }
    ::usleep(2000);
  }
  // Whatever it left in its group ends with it (a background process of a compiler's, a fork of a
  // prebuild's import): it would otherwise run on, beside later candidates' timing. Leaving the
  // group is denied to what a sandboxed run starts (setsid, setpgid: common/seccomp_filter.hpp).
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace kforge::build
