#include "worker/zygote_client.hpp"
#include "core/rules.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>

#include "common/remove_tree.hpp"
#include "common/untrusted_file.hpp"
#include "protocol/frame.hpp"
#include "worker/build_broker.hpp"
#include "worker/candidate_host.hpp"
#include "worker/crash_output.hpp"
#include "worker/exchange_arena.hpp"
#include "worker/failure.hpp"
#include "worker/phase_trace.hpp"
#include "worker/thread_times.hpp"

namespace kforge::worker {
namespace {

using Clock = std::chrono::steady_clock;

// An honest process stops at once; this bounds one on a loaded machine (a spare still starting
// may be reading its libraries from disk).
constexpr auto kStopWait = std::chrono::milliseconds(100);
// The longest a loaded candidate's process may take to stop, held in a system call; past it the
// candidate is rejected (ran-while-stopped).
constexpr auto kLongestWatchedStop = std::chrono::seconds(3);

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "killed by signal " + std::to_string(sig) + (name ? " (" + std::string(name) + ")" : "");
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended (wait status " + std::to_string(status) + ")";
}

}  // namespace

std::optional<std::string> Zygote::read_line(Clock::time_point deadline, bool until_exit) {
  for (;;) {
    if (auto end = buffer_.find('\n'); end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      int pid = 0, status = 0;
      if (std::sscanf(line.c_str(), "exited %d %d", &pid, &status) == 2) {
        exits_[pid] = status;
        // exit_of asks: without this, the report it waits for was taken in and the wait went on
        // to the deadline (2 s of every crashed candidate's verdict, tests/realworld on the H200).
        if (until_exit) return std::string();
        continue;
      }
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left < 0) return std::nullopt;
    pollfd p{fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return std::nullopt;
    char chunk[256];
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;  // the zygote is gone
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

Zygote::Spawned Zygote::spawn(const RankNetwork* rank) {
  if (rank && rank->network_namespace_fd < 0) throw std::runtime_error("a rank's spawn needs its network namespace");
  std::lock_guard lock(mutex_);
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
  // python/kforge_zygote.py reads the kind from the byte: 'c' a candidate (the socket), 'r' a rank
  // (the socket, its network namespace), 'u' a rank in a user namespace too (the socket, the user
  // namespace, the network namespace).
  bool sent = !rank ? send_fds(fd_, {pair[1]}, 'c')
              : rank->user_namespace_fd < 0
                  ? send_fds(fd_, {pair[1], rank->network_namespace_fd}, 'r')
                  : send_fds(fd_, {pair[1], rank->user_namespace_fd, rank->network_namespace_fd}, 'u');
  ::close(pair[1]);  // the zygote holds its own copy now, and the child inherits it
  if (!sent) {
    ::close(pair[0]);
    throw std::runtime_error("the zygote is gone: cannot ask it for a candidate process");
  }
  // Forking a process that has imported torch takes milliseconds; 30 s covers a swapping machine.
  auto line = read_line(Clock::now() + std::chrono::seconds(30));
  int pid = 0;
  if (!line || std::sscanf(line->c_str(), "spawned %d", &pid) != 1 || pid <= 1) {
    ::close(pair[0]);
    throw std::runtime_error("the zygote did not start a candidate process" + (line ? ": " + *line : std::string()));
  }
  return {pair[0], pid};
}

std::string Zygote::exit_of(pid_t pid, std::chrono::milliseconds wait) {
  std::lock_guard lock(mutex_);
  auto deadline = Clock::now() + wait;
  while (!exits_.count(pid)) {
    auto line = read_line(deadline, true);
    if (!line) break;
  }
  auto it = exits_.find(pid);
  if (it == exits_.end()) return "";
  std::string text = describe_status(it->second);
  exits_.erase(it);
  return text;
}

CandidateProcess::CandidateProcess(Zygote& zygote, Zygote::Spawned spawned)
    : zygote_(zygote), socket_(spawned.socket), pid_(spawned.pid) {
  if (const char* scratch = std::getenv("KFORGE_WORKER_SCRATCH"); scratch && *scratch)
    scratch_ = candidate_scratch(scratch, pid_);
}

bool CandidateProcess::end(std::chrono::milliseconds wait) {
  if (ended_) return true;
  // The group: the process and everything it started (none of which can leave it). SIGKILL
  // reaches stopped processes too.
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);  // in case it died before its setpgid
  ended_ = !zygote_.exit_of(pid_, wait).empty();
  return ended_;
}

CandidateProcess::~CandidateProcess() {
  end(std::chrono::milliseconds(0));  // also forgets its exit report if it came
  ::close(socket_);
  if (scratch_.empty()) return;
  copy_output_to_log();
  remove_tree(scratch_);
}

std::string CandidateProcess::output(int64_t from, int64_t max_bytes) const {
  if (scratch_.empty()) return "";
  // The candidate may put a link in its log's place (secrets_output_log_symlink.py).
  const std::optional<UntrustedFile> log = open_untrusted_file(scratch_ + "/" + kCandidateLog);
  if (!log) return "";
  const int64_t start = from >= 0 ? std::min(from, log->bytes) : std::max<int64_t>(0, log->bytes - max_bytes);
  std::string text(static_cast<size_t>(std::min(max_bytes, log->bytes - start)), '\0');
  const ssize_t n = ::pread(log->fd.get(), text.data(), text.size(), start);
  text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return text;
}

void CandidateProcess::copy_output_to_log() const {
  // The worker's log (this process's stderr) gets the candidate's output, bounded: the first and
  // last 32 KiB, so a candidate that prints without end cannot fill the disk through it.
  constexpr int64_t kPart = 32 << 10;
  std::string head = output(0, kPart), tail = output(-1, kPart);
  if (head.empty()) return;
  std::string text = "kforge worker: candidate process " + std::to_string(pid_) + " printed:\n" + head;
  if (tail != head) text += "\n[...]\n" + tail;
  if (text.back() != '\n') text += '\n';
  [[maybe_unused]] auto n = ::write(2, text.data(), text.size());
}

void CandidateProcess::resume() {
  if (stopped_at_) {
    const ThreadRuns then = std::move(*stopped_at_);
    stopped_at_.reset();
    if (const auto now = thread_times(pid_, true)) {
      if (now->too_many_processes)
        throw Failure{Verdict::rejected,
                      "the candidate's process has more than " + std::to_string(kMostWatchedProcesses) +
                          " processes under it: too many for kforge to see that none of them runs beside what is timed",
                      std::string(rules::kProcessInjection)};
      // A stopped thread neither runs, nor ends, nor starts another: any of it means the process
      // (or one under it) was resumed by something other than kforge.
      const auto [ran_ns, late_ns, changed] = run_since(then, *now);
      // Not the candidate's doing; logged where it passes what a read before the switch leaves
      // (0.26-0.31 ms seen on the H200), to see how often.
      if (late_ns > kLateWorthLoggingNs)
        std::fprintf(stderr, "kforge worker: a stopped thread's last run counted %.3f ms late (no new slice)\n", late_ns / 1e6);
      if (ran_ns > kRanWhileStoppedSlackNs || changed > 0) {
        char text[220];
        std::snprintf(text, sizeof text,
                      "the candidate's process ran %.3f ms while kforge had it stopped (%zu threads came, went or "
                      "ran on): it resumed itself, and ran beside what was timed meanwhile",
                      ran_ns / 1e6, changed);
        throw Failure{Verdict::rejected, text, std::string(rules::kRanWhileStopped)};
      }
    }
  }
  ::kill(-pid_, SIGCONT);
}

void CandidateProcess::stop() {
  TracedPart part("process stop");
  ::kill(-pid_, SIGSTOP);
  // A signal is delivered when the target next enters the kernel or is interrupted; wait until
  // every thread has stopped, so none of them queues GPU work after the drain check.
  // Sent again while it waits: a process that resumes itself (a timer's SIGCONT every millisecond)
  // would otherwise never be seen stopped whole, and its CPU time never noted (resume()).
  const auto t0 = Clock::now();
  bool stopped = wait_until_stopped(pid_, t0 + kStopWait, std::chrono::microseconds(20));
  stopped_at_.reset();
  if (!watch_stopped_) return;
  if (!stopped && ready_) {
    // A loaded candidate's thread still running 100 ms after the stop is inside a system call that
    // SIGSTOP does not interrupt (a 1 GiB mmap with MAP_POPULATE runs 0.2-0.3 s on the development
    // machine, and a loop of them took 200-300 ms to stop, every time). Given up on there, as
    // until session 41, it ran on beside the reference's next timed call, with no reading of its
    // threads taken to find it. Nothing is timed until it holds: up to kLongestWatchedStop.
    stopped = wait_until_stopped(pid_, t0 + kLongestWatchedStop, std::chrono::microseconds(200));
    const double took_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (!stopped)
      throw Failure{Verdict::rejected,
                    "the candidate's process ran on for " + std::to_string(static_cast<int>(took_ms)) +
                        " ms after kforge stopped it (a thread held in a system call), beside what is timed",
                    std::string(rules::kRanWhileStopped)};
    std::fprintf(stderr, "kforge worker: the candidate's process took %.0f ms to stop (a thread held in a system call)\n",
                 took_ms);
  }
  if (!stopped) return;
  // One reading: a thread read stopped before it has switched out gains its last run's time
  // later without a new slice, which run_since counts as late, not as a run. (Two readings 100 us
  // apart were taken until the slices were counted: 0.1-0.15 ms a stop, 112 stops in a level-1
  // evaluation; the slice rule passed the GPU trust corpus on an H100 in session 39.) A thread
  // found running again resumed itself meanwhile: it is stopped again, and read once it holds.
  std::optional<ThreadTimes> now = thread_times(pid_, true);
  if (now && !now->any_running) stopped_at_ = std::move(now->stopped);
  else stopped_at_ = settled_thread_times(pid_);
}

void CandidateProcess::pause_start() {
  if (ready_ || start_paused_) return;
  stop();
  start_paused_ = true;
}

void CandidateProcess::continue_start() {
  if (!start_paused_) return;
  start_paused_ = false;
  ::kill(-pid_, SIGCONT);
}

protocol::ReadResult CandidateProcess::read_reply(std::optional<std::chrono::steady_clock::time_point> deadline) {
  return protocol::read_frame(socket_, deadline, protocol::kMaxCandidateFrameBytes);
}

bool CandidateProcess::start_over() const {
  if (ready_) return true;
  pollfd channel{socket_, POLLIN, 0};
  return ::poll(&channel, 1, 0) > 0;
}

void CandidateProcess::wait_ready(std::chrono::seconds wait) {
  if (ready_) return;
  continue_start();
  auto frame = read_reply(Clock::now() + wait);
  if (frame.status == protocol::ReadStatus::ok && frame.message.value("type", "") == "ready") {
    stop();
    if (expected_network_ != 0) {
      const auto& in = frame.message.value("network_namespace", nlohmann::json());
      if (!in.is_number_unsigned() || in.get<uint64_t>() != expected_network_)
        throw Failure{Verdict::runtime_error,
                      "the rank's process is not in its job's private network (it is in " +
                          (in.is_number_unsigned() ? std::to_string(in.get<uint64_t>()) : std::string("an unnamed one")) +
                          ", the job's is " + std::to_string(expected_network_) + ")",
                      ""};
    }
    ready_ = true;
    // The fresh process's own account of its start (it has run no candidate code).
    if (const auto& ms = frame.message.value("prepare_ms", nlohmann::json()); PhaseTrace::wanted() && ms.is_number())
      PhaseTrace::current().add("spare start prepare", ms.get<double>());
    // Its parts (torch's CUDA start, the timer and stream hold, each library's warm-up): where a
    // spare's start could be made shorter (session 51's H200: the part that makes the context,
    // the timer's, the largest, its stopped time included; docs/benchmarks.md).
    if (const auto& parts = frame.message.value("prepare_parts", nlohmann::json()); PhaseTrace::wanted() && parts.is_object())
      for (const auto& [part, ms] : parts.items())
        if (ms.is_number()) PhaseTrace::current().add("spare start " + part, ms.get<double>());
    return;
  }
  std::string how = frame.status == protocol::ReadStatus::timed_out ? "did not start within " + std::to_string(wait.count()) + " s"
                                                                      : zygote_.exit_of(pid_, std::chrono::milliseconds(2000));
  throw Failure{Verdict::runtime_error, "the candidate's process could not start: " + (how.empty() ? "it died" : how), ""};
}

nlohmann::json CandidateProcess::request(const nlohmann::json& message, double* outer_ms, int fd, nlohmann::json* timed,
                                         const std::function<void(const nlohmann::json&)>& while_stopped) {
  resume();
  auto t0 = Clock::now();
  bool sent = protocol::write_frame(socket_, message) && (fd < 0 || send_fd(socket_, fd));
  auto frame = sent ? read_reply() : protocol::ReadResult{};
  // A load_inline build it asks for while it answers (worker/build_broker.hpp): not in a timed
  // call, where the first frame must be the timed one and a build would run inside its clock.
  while (!timed && frame.status == protocol::ReadStatus::ok && frame.message.is_object() &&
         frame.message.value("type", "") == "build") {
    const nlohmann::json spec = frame.message.value("spec", nlohmann::json());
    if (!protocol::write_frame(socket_, {{"type", "built"}, {"result", build_for_candidate(spec, scratch_)}})) {
      frame = protocol::ReadResult{};
      break;
    }
    frame = read_reply();
  }
  auto t1 = Clock::now();
  if (outer_ms) *outer_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  if (timed && frame.status == protocol::ReadStatus::ok && frame.message.is_object() &&
      frame.message.value("type", "") == "timed") {
    *timed = frame.message;
    if (while_stopped) {
      stop();
      while_stopped(*timed);
      resume();
    }
    frame = read_reply();
  }
  return answer_of(frame);
}

void CandidateProcess::send_request(const nlohmann::json& message) {
  resume();
  if (!protocol::write_frame(socket_, message)) throw_for_reply(protocol::ReadResult{});
}

nlohmann::json CandidateProcess::answer() { return answer_of(read_reply()); }

nlohmann::json CandidateProcess::answer_of(const protocol::ReadResult& frame) {
  if (frame.status == protocol::ReadStatus::ok && frame.message.is_object()) {
    stop();
    return frame.message;
  }
  throw_for_reply(frame);
}

void CandidateProcess::throw_for_reply(const protocol::ReadResult& frame) {
  if (frame.status == protocol::ReadStatus::malformed || frame.status == protocol::ReadStatus::ok) {
    stop();
    throw Failure{Verdict::rejected,
                  "the candidate's process answered with something kforge never sends (" +
                      (frame.error.empty() ? std::string("not a JSON object") : frame.error) +
                      "): candidate code wrote into the result channel",
                  std::string(rules::kForgedResult)};
  }
  std::string how = zygote_.exit_of(pid_, std::chrono::milliseconds(2000));
  const CrashOutput said = read_crash_output(output(-1, 16 << 10), 1500);
  throw Failure{Verdict::crashed,
                "the candidate's process died (" + (how.empty() ? "it closed its channel" : how) + ")" +
                    (said.where.empty() ? "" : "; Python's fault handler places it at " + said.where) +
                    (said.native_head.empty() ? "" : "; its native stack began: " + said.native_head) +
                    (said.tail.empty() ? "" : "; its output ended with: " + said.tail),
                ""};
}

}  // namespace kforge::worker
