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
#include "worker/timer.hpp"

namespace kforge::worker {

namespace py = pybind11;

struct TimingOutcome {
  std::vector<double> ref_ms, cand_ms, ref_host_ms, cand_host_ms;
  std::vector<double> cand_bound_ms;  // kforge's own clock around each candidate call (remote_candidate.hpp)
  int throttled_pairs = 0;          // dropped: the GPU throttled during one of the two calls
  int unheld_pairs = 0;             // dropped: timed while the hold was given up (see time_pairs)
  unsigned min_mhz = 0, max_mhz = 0;  // SM clock range over the kept samples (0: not sampled)
  std::string not_held;             // why not, when the timer could hold (for the message)
};

// One timed call of the candidate: `hold` the stream or not, on `args`, with torch's generators
// seeded with `forward_seed` first (as the reference's call of the same pair is: dropout and other
// random ops draw alike); its outputs into `result` (may be null: an untimed warm-up whose outputs
// nobody reads).
using CandidateCall =
    std::function<Sample(bool hold, const py::list& args, uint64_t forward_seed, py::object* result)>;

// The seed torch's generators get before each model's forward on the inputs of `input_seed`, the
// same for both models (REFERENCE.md: a dropout mask must match), and not the inputs' own seed.
uint64_t forward_seed_for(uint64_t input_seed);

TimingOutcome time_pairs(const py::object& ref, const CandidateCall& cand, const std::function<py::list(int)>& inputs_for,
                         const protocol::EvalJob& job, uint64_t seed, const at::Device& device, int batch,
                         Timer& timer);

// How many timed pairs to prepare at once: up to 8, as many as a quarter of the free device memory
// (1 GiB on the CPU) holds, counting per pair two copies of the inputs and both models' outputs.
int timing_batch(int64_t pair_bytes, bool cuda);

}  // namespace kforge::worker
