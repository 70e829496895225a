#pragma once
// Candidate processes started ahead of their candidates (docs/evaluation.md, "The boundary"): the
// next job's and the one after's, none of which has run candidate code. A fresh process makes its
// CUDA context (about 0.2 s on the H200) while the current candidate's correctness trials run;
// once the job is done it warms cuBLAS and cuDNN (worker/library_warmup.hpp, about 0.15 s) through
// the next job's load and trials, and is taken by the job after. Two, because a start and a
// warm-up together take longer than one level-1 job leaves free (its trials: about 0.22 s); with
// one, the warm-up's remainder was waited for (docs/benchmarks.md, session 19).
// Nothing of theirs runs while anything is timed or calibrated: QuietSpares waits for every start
// to finish and pauses every warm-up (SIGSTOP) for its scope.
#include <deque>
#include <memory>

#include "worker/zygote_client.hpp"

namespace kforge::worker {

class SpareProcesses {
 public:
  void attach(Zygote* zygote) { zygote_ = zygote; }

  // Starts processes until there are two; a failure is only logged (the next top-up tries again,
  // and take() starts one itself).
  void top_up();
  // The oldest spare, ready and its warm-up finished, or a new process when none is left; spares
  // lost meanwhile (the OOM killer, an operator) are dropped. Throws a Failure when no new process
  // can start.
  std::unique_ptr<CandidateProcess> take();
  // Sends the warm-up to every ready spare that has not had it. Only where nothing is timed until
  // the next QuietSpares: between jobs.
  void warm_ready();

  // The oldest spare, ready, lent for a recalibration (nullptr when there is none), and given back.
  std::unique_ptr<CandidateProcess> lend();
  void give_back(std::unique_ptr<CandidateProcess> process);

 private:
  friend class QuietSpares;
  void quiet();   // every spare ready and stopped; warm-ups paused
  void resume();  // warm-ups go on
  // Waits until `process` is ready; false (logged) when it was lost.
  static bool settle(CandidateProcess& process);

  Zygote* zygote_ = nullptr;
  std::deque<std::unique_ptr<CandidateProcess>> spares_;  // oldest first
};

// For its scope nothing of the spares runs: around calibrations and the timing.
class QuietSpares {
 public:
  explicit QuietSpares(SpareProcesses& spares) : spares_(spares) { spares_.quiet(); }
  ~QuietSpares() { spares_.resume(); }
  QuietSpares(const QuietSpares&) = delete;
  QuietSpares& operator=(const QuietSpares&) = delete;

 private:
  SpareProcesses& spares_;
};

}  // namespace kforge::worker
