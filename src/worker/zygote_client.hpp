#pragma once
// The reference process's handle on candidate processes (docs/evaluation.md, "The boundary").
//
// The zygote (python/kforge_zygote.py) is a Python process with torch and kforge's worker module
// imported and no CUDA context, started by the worker script before it imports torch, with an
// environment stripped of everything but what torch, CUDA and the build need. Asked for a
// candidate process, it forks one (which makes its own CUDA context and enters its sandbox,
// worker/candidate_host.hpp) and reaps it when it dies, reporting how. A fork costs milliseconds
// where a fresh interpreter importing torch costs seconds.
//
// A CandidateProcess is one such process, in a process group of its own that nothing it starts
// can leave (setsid and setpgid are denied to it): stopped (SIGSTOP) whenever it is not answering
// a request, and killed whole when its handle goes.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "protocol/frame.hpp"
#include "worker/thread_times.hpp"

namespace kforge::worker {

class Zygote {
 public:
  explicit Zygote(int control_fd) : fd_(control_fd) {}
  Zygote(const Zygote&) = delete;  // owns the control socket's reading state
  Zygote& operator=(const Zygote&) = delete;

  struct Spawned {
    int socket = -1;  // the reference process's end of the candidate's socket
    pid_t pid = -1;
  };
  // A rank of a multi-rank job (issue 24): the held private network (worker/private_network.hpp's
  // PrivateNetworkHolder) its process joins right after the fork, before any other code runs in it.
  struct RankNetwork {
    int user_namespace_fd = -1;  // -1 where the holder made none
    int network_namespace_fd = -1;
  };
  // A new candidate process, or with `rank` a rank's, in that network; throws std::runtime_error
  // when the zygote is gone or refuses.
  Spawned spawn(const RankNetwork* rank = nullptr);
  // How `pid` ended ("killed by signal 11 (Segmentation fault)", "exited with status 3"), as the
  // zygote reaped it, waiting at most `wait`; empty if it has not said.
  std::string exit_of(pid_t pid, std::chrono::milliseconds wait);

 private:
  // The next line other than an exit report (those are recorded in exits_ as they come), or, with
  // `until_exit`, an empty line as soon as an exit report was recorded; nothing at the deadline.
  std::optional<std::string> read_line(std::chrono::steady_clock::time_point deadline, bool until_exit = false);
  int fd_;
  // The control socket's reading state, shared by the threads that start reference twins side by
  // side (worker/reference_twin.cpp): a twin that fails asks exit_of from its own thread.
  std::mutex mutex_;
  std::string buffer_;
  std::map<pid_t, int> exits_;  // pid -> wait status
};

class CandidateProcess {
 public:
  CandidateProcess(Zygote& zygote, Zygote::Spawned spawned);
  ~CandidateProcess();  // kills its process group and closes the socket
  CandidateProcess(const CandidateProcess&) = delete;
  CandidateProcess& operator=(const CandidateProcess&) = delete;

  pid_t pid() const { return pid_; }
  int socket() const { return socket_; }
  // Its scratch folder (its working directory, the one place it may write); empty where the worker has none.
  const std::string& scratch() const { return scratch_; }

  // Waits for the process's first frame ("ready": its CUDA context made, its sandbox entered),
  // then stops it; at once when it was ready before. Throws a Failure (runtime_error) when it dies
  // first or `wait` passes, or when a rank's process is not in the network expect_network named.
  void wait_ready(std::chrono::seconds wait);
  // Whether its start is over, without waiting: ready, or its first frame (or the end of its
  // channel, where it died) is there to read, so wait_ready() will not block.
  bool start_over() const;
  // A process still starting (no "ready" read yet) stopped where it is, so nothing of its start
  // runs while something is timed; continue_start() lets it go on, as does wait_ready().
  void pause_start();
  void continue_start();
  // A rank's process (Zygote::spawn with a RankNetwork) must come up in its job's private network:
  // wait_ready then requires its ready frame, written by kforge's code before any of the
  // candidate's could run, to name this namespace (the holder's, as fstat of its fd gives it).
  void expect_network(uint64_t network_namespace) { expected_network_ = network_namespace; }

  // Resumes the process, sends `request`, waits for its answer, stops the process again and
  // waits until every one of its threads is stopped. `outer_ms`: the reference process's own
  // clock from sending to receiving [ms]. `fd`, when given, follows the frame (SCM_RIGHTS).
  // Throws a Failure: `crashed` when the process died (with how), `rejected`/forged-result when
  // what came back is not a frame.
  // A timed call answers twice: first {"type": "timed"} once its outputs are in the arena (where
  // the clock stops; it is returned in `timed`), then its result. `while_stopped`, when given,
  // runs between the two with the process stopped: what it reads of the arena is what the call
  // left there when the clock stopped, whatever the process does after.
  nlohmann::json request(const nlohmann::json& message, double* outer_ms = nullptr, int fd = -1,
                         nlohmann::json* timed = nullptr,
                         const std::function<void(const nlohmann::json&)>& while_stopped = {});
  // A request of kforge's own answered later (a reference twin's unload: no build, no timed
  // frame): sent now, the process resumed, so that kforge works on meanwhile; answer() reads the
  // answer and stops the process again, with request()'s failures.
  void send_request(const nlohmann::json& message);
  nlohmann::json answer();
  // Stops every thread of the process and notes their CPU time; resume() looks again before it
  // lets the process go on, and throws a Failure (rejected, ran-while-stopped) where it grew: the
  // process resumed itself (a SIGCONT the kernel sends for it: a POSIX timer's, an fd's F_SETSIG)
  // and ran beside what kforge timed meanwhile (the reference's calls).
  void resume();
  void stop();
  // Turns the check above on (a candidate's process; the reference twin runs no code of its own).
  // Growth below kRanWhileStoppedSlackNs is not counted (a loaded machine was seen to add 0.05 ms
  // to a stopped thread's time), nor growth without a new slice (run_since: the last run before
  // the stop, counted late once the thread switched out).
  void watch_runs_while_stopped() { watch_stopped_ = true; }
  static constexpr uint64_t kRanWhileStoppedSlackNs = 200'000;
  static constexpr uint64_t kLateWorthLoggingNs = 1'000'000;
  // Kills the process group now and waits up to `wait` for the zygote's report of the exit;
  // whether it came. The destructor then has nothing left to kill.
  bool end(std::chrono::milliseconds wait);

 private:
  // What the process printed (its log in its scratch folder): `max_bytes` from `from`, or the
  // last `max_bytes` when `from` is negative.
  std::string output(int64_t from, int64_t max_bytes) const;
  void copy_output_to_log() const;
  // Its next frame, at most protocol::kMaxCandidateFrameBytes (its code can write into the channel).
  // The answer `frame` holds, the process stopped again; else throw_for_reply's Failure.
  nlohmann::json answer_of(const protocol::ReadResult& frame);
  // A reply that is not an answer: the process stopped, and the Failure request() throws for it.
  [[noreturn]] void throw_for_reply(const protocol::ReadResult& frame);
  protocol::ReadResult read_reply(std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

  Zygote& zygote_;
  int socket_;
  pid_t pid_;
  std::string scratch_;  // its scratch folder, removed with it
  bool ready_ = false;   // its "ready" frame was read
  bool start_paused_ = false;  // pause_start() stopped it before it was ready
  bool ended_ = false;   // end() saw it exit: its pid may be another process's now
  uint64_t expected_network_ = 0;  // a rank's: the network namespace it must be in (0: a candidate)
  // What its stopped threads had run (CPU time and slices) when stop() last saw every one of them
  // stopped (none: it did not).
  std::optional<ThreadRuns> stopped_at_;
  bool watch_stopped_ = false;
};

}  // namespace kforge::worker
