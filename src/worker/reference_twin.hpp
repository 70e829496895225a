#pragma once
// The reference twin (docs/evaluation.md, "The boundary"): the reference's timed calls made in a
// process of its own, started, calibrated and given its first call as the candidate's process
// was, so that both models are timed from the same state of their process: the same allocator
// history, the same library plans, their inputs in an arena alike. Timed in the reference process,
// whose history no fresh candidate process shares, level 1's transposed convolutions ran the same
// cuDNN kernel at two speeds, one per process (level1/83: 2.76 ms against the candidate's 3.28 ms,
// an identity at 0.84; docs/benchmarks.md, session 31).
//
// It is started at load, once the candidate's process is calibrated and before the candidate is
// loaded into it: its first call chooses its library plans, and a candidate holding the GPU's
// memory by then could steer them to smaller workspaces, slower for the whole timing. No candidate
// code ever runs in it; it is kept, stopped, for the worker's next job of the same problem.
//
// Its process outlives its problem: where the next job is another problem's, the problem is let go
// there (retire_twins) and the next problem's twins are started in those processes, not in spares.
// A new problem's job then takes one spare (its candidate's) instead of three, and each spare's
// start, its CUDA context above all, ran beside the loads of the jobs after it: on an H100 a new
// problem's twins started in 20 ms where no other process was making or ending a context and in
// 99-238 ms beside that (session 52), with about four spares starting at any time of level 1.
// A twin's sandbox is entered at its first load and names the folder of that problem: only
// problems of the same folder reuse its process (a suite's level is one folder).
// KFORGE_WORKER_TWINS_ACROSS_PROBLEMS=off ends them with their problem, as before session 53.
//
// Two twins are started, and the timed pairs take them in turn: a process draws a speed of its own
// for its whole life on some problems (level1/83 on the H200: two speeds 19% apart; level1/66 on
// an H100 about 4% slower in 2 of 12 fresh processes), and one twin that drew a slow speed would
// have made every candidate of its problem look that much faster. Two show how far apart their
// processes came (stats::reference_processes_apart), which widens the speedup's interval where it
// is more than the fixed allowance, and halve what one twin's draw moves the speedup; a pair found
// apart is not kept for the problem's next job (ReferenceTwins::not_kept).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include "protocol/messages.hpp"
#include "worker/evaluate.hpp"
#include "worker/failure.hpp"
#include "worker/paired_timing.hpp"
#include "worker/remote_candidate.hpp"

namespace kforge::worker {

namespace py = pybind11;

// Whether `job`'s reference is timed in a twin: not for a multi-rank job (its candidates' group is
// one per rank), nor for one that times nothing, nor with KFORGE_WORKER_REFERENCE=inline (the
// reference timed in the reference process, as before the twin).
bool reference_twin_wanted(const protocol::EvalJob& job, bool multi_rank);

// What a kept twin must match to serve `job`: the problem (its path and text), the precision, the
// timing mode, a training step's request (`training`, null for none).
std::string reference_twin_key(const protocol::EvalJob& job, const nlohmann::json& training);

// The folder whose problems a twin started for `problem_path` may time later (its sandbox lets it
// read there).
std::string twin_problem_folder(const std::string& problem_path);

// `twins`, whose problem is over in this worker: each one's problem let go in its process and the
// process left in `context.idle_twins` for another problem of `context.twin_folder`, or ended (one
// that does not answer, more than a job takes, or KFORGE_WORKER_TWINS_ACROSS_PROBLEMS=off).
void retire_twins(WorkerContext& context, std::vector<std::unique_ptr<RemoteCandidate>> twins);

// How many twins time a job's reference: two, or KFORGE_WORKER_TWINS=1 for one (a benchmark's
// comparison of the two ways in one run).
size_t reference_twin_count();

// Which twin times the reference's side of timed pair `pair` (from 0) among `twins`: two pairs in
// a row each, so each twin is timed first in one pair and second in the other (ABBA), and the
// GPU's drift over the timing falls on both alike.
size_t twin_for_pair(int pair, size_t twins);

// What the twin's start repeats of the candidate process's: its calibration's requests and its
// first trial's call (its inputs made only where a twin is started, not kept).
struct TwinStart {
  const protocol::EvalJob& job;
  nlohmann::json training;         // the training step's request (null: none)
  py::list calibration_inputs;      // the inputs the candidate's calibration used (let go after the twin's)
  int64_t output_bytes = 0;        // the reference's outputs at the benchmark size
  std::optional<int> cpu;          // the candidate's timing core (worker/cpu_pin.hpp)
  std::function<py::list()> first_inputs;  // the first trial's inputs
  uint64_t first_forward_seed = 0;  // and the generators' seed before its forward
  int64_t settle_bytes = 0;        // the first call's settled allocator (worker/plan_choice.hpp)
  std::optional<double> idle_probe_ms;  // the candidate process's calibrated idle probe, for its drain checks
};

// One evaluation's reference twins, from the load on: started, or taken from those the worker
// kept for the same problem; the reference's side of each timed call; kept for the next job.
//
// New twins start side by side, the second on a thread of its own: their processes build the
// model and make their first forwards at once (each twin's start is a few requests, 0.13-0.16 s
// on an H100, paid twice one after the other: session 49). The worker's side of each request
// takes the interpreter's lock in turns; the inputs are all made first, on the calling thread.
// KFORGE_WORKER_TWIN_START=one-by-one starts them one after the other, for a benchmark's comparison.
class ReferenceTwins {
 public:
  // Those `context` kept for `key` (a job's reference_twin_key), else reference_twin_count() new
  // ones, each from start_for(i) (its calibration inputs its own), in the context's idle twin
  // processes where they may read `folder` (twin_problem_folder of the job's problem), else in
  // spares; twins kept for another problem are retired first. The first one's failure is
  // thrown, as the reference's (reference_failure): the caller then times the reference in the
  // reference process. A later one's leaves fewer (two copies of a large model beside the
  // candidate's may not fit), and note() says so.
  void start(WorkerContext& context, std::string key, const std::string& folder, const std::function<TwinStart(size_t)>& start_for,
             bool cuda);

  bool empty() const { return twins_.empty(); }
  size_t size() const { return twins_.size(); }

  // The reference's side of `call` through `timed_call`: a timed pair's twin (twin_for_pair), or
  // every twin in turn for a warm-up or untimed call, so that each comes to its timed calls as warm
  // as the other; the sample names the twin (Sample::process) and says the watchdog let a call go
  // where it let any go (the hold is then given up for both models). Failures are the reference's.
  Sample call(const TimedCall& call, const std::function<Sample(RemoteCandidate&, const TimedCall&)>& timed_call);

  // The twins kept in `context` for its next job, unless a request to one ended other than in an
  // answer, or they came apart (not_kept): then they end here. Twins whose problem
  // end_unless_wanted_next let go are left idle there once their processes say it is done.
  void keep(WorkerContext& context);

  // Their problem ended now (retire_twins), unless kforge says its next job is likely of the same
  // problem or cannot say (EvalJob::next_job_same_problem): then what it frees runs beside this
  // job's census and its result's sending, not beside the next job's twins' start, whose arenas,
  // allocations and first calls waited for the driver meanwhile (on an H100, a new problem's twins
  // took 100-240 ms to start after another problem's job against 20 ms after none; session 52).
  // Not where a request went unanswered or they came apart (not_kept): those end.
  // KFORGE_WORKER_TWINS_KEPT=always keeps them whatever kforge says, as before session 52.
  void end_unless_wanted_next(WorkerContext& context, const protocol::EvalJob& job);

  // Not kept for the next job: the timing found them apart (stats::processes_drew_apart), so one of
  // them drew a speed of its own, and a problem's next candidates get a new pair rather than the
  // same lean for every attempt of an agent's search.
  void not_kept() { kept_after_ = false; }

  // Why the reference was timed in fewer twins than asked for; empty otherwise.
  const std::string& note() const { return note_; }

 private:
  void start_one_by_one(WorkerContext& context, const std::function<TwinStart(size_t)>& start_for, bool cuda);
  void start_side_by_side(WorkerContext& context, const std::function<TwinStart(size_t)>& start_for, bool cuda);

  std::vector<std::unique_ptr<RemoteCandidate>> twins_;
  std::vector<std::unique_ptr<RemoteCandidate>> retiring_;  // asked to let their problem go; keep() reads the answers
  bool clean_ = false;  // every request answered
  bool kept_after_ = true;  // not_kept() not called
  std::string key_;     // what kept twins must match
  std::string note_;
};

// What the twin failed with, as the reference's failure: a broken problem or a machine in trouble,
// never the candidate's doing (its own words name the candidate).
template <class Fn>
auto reference_failure(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Failure& f) {
    throw Failure{Verdict::runtime_error, "the reference's timing process: " + f.message, "", f.not_the_candidates};
  }
}

}  // namespace kforge::worker
