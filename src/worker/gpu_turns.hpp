#pragma once
// Turns on a GPU that several workers share (kforge eval --workers-per-gpu, docs/evaluation.md,
// "Workers that share a GPU"). An evaluation's time is part quiet work, which needs the GPU and
// the timing cores to itself (the calibration of the candidate's process, the reference twin's
// start, the timed pairs), and part work that only needs to be correct (the reference's load, the
// candidate's import, the correctness trials, the census, the release). A second worker on the
// same GPU does its work of the second kind while the first does the same, so the boundary's
// per-candidate costs overlap instead of adding up; quiet work is never overlapped by anything.
//
// The turns are a reader-writer lock over one file per GPU (flock): a worker holds it shared for
// work that only needs to be correct, exclusive ("quiet") for quiet work, and not at all between
// jobs. Whenever a worker gives its turn up, nothing of it is left on the GPU and nothing of it
// runs (TurnHooks::give_up, worker/job_loop.cpp's: its queued work finished, its spares still
// starting stopped where they are; its candidate's and twin's processes are stopped and drained
// after every request anyway) until it has a turn again (TurnHooks::go_on).
//
// The lock's descriptor is inherited from kforge at a fixed number (KFORGE_WORKER_GPU_TURNS names
// it), an open file description of this worker's own; it is made close-on-exec, and the zygote is
// started with its socket only, so no candidate process ever holds it (one that did could release
// the worker's lock while the other worker times). Without it (one worker per GPU, the CPU, a
// rank's worker) there are no turns: gpu_turns() is null.
#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace kforge::worker {

// What a worker does around a change of turn.
struct TurnHooks {
  std::function<void()> give_up;  // before the turn held is let go: nothing of the worker may run on after it
  std::function<void()> go_on;    // once a turn is held again
};

class GpuTurns {
 public:
  enum class Turn { none, shared, quiet };

  // From KFORGE_WORKER_GPU_TURNS=FD; null without it (or with a descriptor that is no regular file).
  static std::unique_ptr<GpuTurns> from_environment();
  // On `fd`, a lock file opened for this worker alone (tests: several in one process, each with
  // a descriptor of its own, take turns as workers do).
  explicit GpuTurns(int fd) : fd_(fd) {}
  ~GpuTurns();
  GpuTurns(const GpuTurns&) = delete;
  GpuTurns& operator=(const GpuTurns&) = delete;

  void set_hooks(TurnHooks hooks) { hooks_ = std::move(hooks); }
  // Takes `turn`, waiting for the other workers' quiet turn to end (for shared) or for every other
  // worker's turn to end (for quiet). A change gives the turn held up first. Returns the seconds
  // it took.
  double take(Turn turn);
  Turn held() const { return held_; }
  // Where waits are reported while a job runs (`fd`, the worker's result pipe; -1: nowhere):
  // kforge's deadline for a job leaves them out, so a job waiting for another worker's hung
  // candidate is not the one timed out (pool/worker_process.cpp). Each report is a frame
  // {"type": "waited", "nonce": the job's, "s": seconds}, one a second while a wait lasts and
  // one for the rest when it ends.
  void report_waits_to(int fd, std::string nonce);

 private:
  void wait_for(int how);
  void report(double seconds) const;
  int fd_;
  Turn held_ = Turn::none;
  TurnHooks hooks_;
  int report_fd_ = -1;
  std::string nonce_;
};

// This worker's turns for as long as it lives: null where it has its GPU to itself.
GpuTurns* gpu_turns();

}  // namespace kforge::worker
