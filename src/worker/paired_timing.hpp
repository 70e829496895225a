#pragma once
// The timing phase of an evaluation: reference and candidate timed in pairs, interleaved ABBA,
// fresh inputs for every pair, batches of pairs whose inputs are made first, every candidate
// output rechecked against the reference's on the same inputs, until the speedup's interval is
// narrow enough or a cap is reached (docs/evaluation.md, "Timing").
#include <ATen/ATen.h>
#include <pybind11/pybind11.h>

#include <functional>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "worker/pair_batches.hpp"
#include "worker/rank_group.hpp"
#include "worker/tensors.hpp"
#include "worker/timer.hpp"

namespace kforge::worker {

namespace py = pybind11;

struct TimingOutcome {
  std::vector<double> ref_ms, cand_ms, ref_host_ms, cand_host_ms;
  std::vector<double> cand_bound_ms;  // kforge's own clock around each candidate call (remote_candidate.hpp)
  // Each call's delivery (Sample::delivery_ms), the candidate's and the reference twin's; empty
  // where the reference is timed in the reference process.
  std::vector<double> cand_delivery_ms, twin_delivery_ms;
  // Which of the reference's timing processes made each kept pair's reference call (Sample::process).
  std::vector<int> ref_process;
  int throttled_pairs = 0;          // dropped: the GPU throttled during one of the two calls
  int unheld_pairs = 0;             // dropped: timed while the hold was given up (see time_pairs)
  unsigned min_mhz = 0, max_mhz = 0;  // SM clock range over the kept samples (0: not sampled)
  std::string not_held;             // why not, when the timer could hold (for the message)
};

// What of a timed call's outputs its recheck reads: all of an output of at most kElements, a
// secret sample of kElements positions of a larger one, the same positions on both sides of a
// pair. A replayed, cached or skipped result differs almost everywhere, so a sample finds it, for
// about 0.1 ms instead of a full comparison's 20 ms on 2.4 GB; and the candidate's side is taken
// where its output lies, not after copying all of it out (issue 18's phase trace).
class RecheckSample {
 public:
  static constexpr int64_t kElements = int64_t{1} << 20;
  RecheckSample(uint64_t seed, const at::Device& device);
  // A tensor of its own (never a view of `output`): the output whole, or its sample, flattened.
  at::Tensor of(const at::Tensor& output) const;

 private:
  at::Tensor positions_;  // kElements draws below 2^62, each reduced modulo an output's size
};

// A timed call's outputs as kept for the recheck: each one's sample and its full shape.
struct KeptOutputs {
  std::vector<at::Tensor> samples;
  std::vector<std::vector<int64_t>> shapes;
};

// One call of a model in a process of kforge's (the candidate's, the reference twin's), as the
// timing asks for it.
struct TimedCall {
  bool hold = false;  // with the stream held while its forward is queued
  py::list args;
  // torch's generators are seeded with it before the forward, as the other model's call of the same
  // pair is (dropout and other random ops draw alike).
  uint64_t forward_seed = 0;
  const RecheckSample* keep = nullptr;  // what of its outputs to take
  KeptOutputs* kept = nullptr;          // where: null for an untimed call, whose outputs nobody reads
  // The candidate process's integrity checks after this call, asked for on a batch's last call only
  // (its outputs are read at its timed frame, before them, so they guard no timed figure: a change
  // they would find after an earlier call of the batch is still there after the last).
  bool checks = false;
  // The timed pair's index from 0, the same for both models of a pair; negative for a warm-up pair
  // or an untimed call. Where a process places the call's inputs may follow it (input layouts,
  // worker/remote_candidate.hpp).
  int pair = -1;
};
using CandidateCall = std::function<Sample(const TimedCall&)>;

struct PairSetup {
  int batch = 1;  // pairs whose inputs are made at once (timing_batch)
  // Both models of a pair get the same input tensors, not a copy each: the candidate's process
  // copies its arguments anyway, and the reference was seen to leave its inputs unchanged (the
  // trials), so neither can see what the other did to them.
  bool share_inputs = false;
  // What each output is, for the recheck's comparison (a training step's gradients are compared
  // at their own scale; worker/training.hpp). Empty: plain outputs.
  std::vector<ComparedTensor> roles;
  // A multi-rank job's (worker/rank_group.hpp): every timed call starts after a barrier, each
  // pair's times are the slowest rank's, and rank 0 decides when the timing stops. Null: one rank.
  const RankGroup* ranks = nullptr;
  // A multi-rank job's: runs one batch (its calls and its recheck) on this rank, then has the
  // ranks agree whether any failed (Evaluation::agreed), so a rank that fails a batch never meets
  // the others' next collective alone: a rank whose candidate cheated only there and failed its
  // recheck called the control group's `any` while the others called `max` (slowest_ranks), gloo
  // aborted its worker twice, and the job ended "the reference process died twice" with no verdict
  // stored (red-team, session 35; tests/ranks/rank1_cheats_when_timed.py). Empty: one rank.
  std::function<void(const std::function<void()>&)> agree;
  // The reference's timed calls made in a process of its own, as the candidate's are (the reference
  // twin, worker/reference_twin.hpp); its kept outputs are the recheck's reference. Empty: `ref`,
  // the reference process's own model, is timed here.
  CandidateCall reference_process;
};

// The seed torch's generators get before each model's forward on the inputs of `input_seed`, the
// same for both models (REFERENCE.md: a dropout mask must match), and not the inputs' own seed.
uint64_t forward_seed_for(uint64_t input_seed);

TimingOutcome time_pairs(const py::object& ref, const CandidateCall& cand, const std::function<py::list(int)>& inputs_for,
                         const protocol::EvalJob& job, uint64_t seed, const at::Device& device, const PairSetup& setup,
                         Timer& timer);

// How many timed pairs to prepare at once: as many as a quarter of the free device memory (1 GiB
// on the CPU) holds at `pair_bytes` each, beside one call's `output_bytes`, at most
// kMostPairsPerBatch, evened out for `min_pairs` (evened_batch).
int timing_batch(int64_t pair_bytes, int64_t output_bytes, bool cuda, int min_pairs);

}  // namespace kforge::worker
