#include "worker/paired_timing.hpp"

#include "core/seeds.hpp"
#include "core/rules.hpp"

#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "common/environment_says.hpp"
#include "metrics/statistics.hpp"
#include "metrics/timing_clock.hpp"
#include "worker/failure.hpp"
#include "worker/phase_trace.hpp"
#include "worker/python_bridge.hpp"
#include "worker/tensors.hpp"

namespace kforge::worker {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }


// What the recheck keeps of the reference's outputs of a timed call, taken at once: a batch then
// holds the samples, not every pair's outputs whole.
KeptOutputs keep_reference_outputs(const py::object& result, const RecheckSample& keep, const std::string& label) {
  Outputs r = normalize_outputs(result);
  if (!r.error.empty()) throw Failure{Verdict::runtime_error, label + ": the reference's " + r.error, ""};
  KeptOutputs kept;
  for (const at::Tensor& t : r.tensors) {
    kept.samples.push_back(keep.of(t));
    kept.shapes.push_back(t.sizes().vec());
  }
  return kept;
}

// The candidate's output of a timed call against the reference's on the same inputs, both as
// the pair's RecheckSample took them.
void recheck_pair(const KeptOutputs& ref, const KeptOutputs& cand, const std::string& label, const protocol::EvalJob& job,
                  const std::vector<ComparedTensor>& roles) {
  auto reject = [&](const std::string& what) {
    throw Failure{Verdict::rejected, label + ": " + what + ", after it passed the correctness trials",
                  std::string(rules::kTimingRecheck)};
  };
  if (ref.shapes.size() != cand.shapes.size())
    reject("the candidate returned " + std::to_string(cand.shapes.size()) + " outputs where the reference returned " +
           std::to_string(ref.shapes.size()));
  for (size_t i = 0; i < ref.shapes.size(); ++i)
    if (ref.shapes[i] != cand.shapes[i])
      reject("the candidate's " + (i < roles.size() ? roles[i].name : "output " + std::to_string(i)) + " has shape " +
             describe_shape(cand.shapes[i]) + " where the reference's has " + describe_shape(ref.shapes[i]));
  Comparison cmp = guarded(Verdict::runtime_error, label + ": comparing outputs",
                           [&] { return compare_outputs(ref.samples, cand.samples, job.atol, job.rtol, roles); });
  if (!cmp.match)
    reject("the candidate's output differs from the reference's on the same fresh inputs (" + cmp.message +
           "): a cached, replayed or skipped result");
}

// One model as the timing loop calls it. Eager: forward on the pair's inputs inside the timed
// window. Graphed (--cuda-graph, python/kforge_graphs.py): the forward captured once into a CUDA
// graph; per call the inputs are copied into the graph's buffers before the window, only the
// replay is inside it, and the output is copied out after it (the next replay overwrites it).
struct TimedSide {
  py::object model;
  py::object graphed;  // a kforge_graphs.GraphedForward, or None
  bool fresh_copy = false;  // each call on a copy of its arguments made just before (the CPU)

  static TimedSide make(const py::object& model, const std::string& who, bool cuda_graph, const py::list& example) {
    TimedSide side{model, py::none()};
    if (!cuda_graph) return side;
    side.graphed = guarded(Verdict::runtime_error, "--cuda-graph: " + who + " could not be captured in a CUDA graph", [&] {
      return py::module_::import("kforge_graphs").attr("GraphedForward")(model, example);
    });
    return side;
  }

  Sample time(Timer& timer, bool hold, const py::tuple& args, py::object* result = nullptr) const {
    if (graphed.is_none()) {
      // On the CPU nothing flushes the caches before a call, and the candidate's process copies
      // its arguments just before each of its calls (worker/candidate_host.cpp): the reference
      // gets the same warm start, or the candidate's identity came out 1.5x faster.
      py::tuple warm = fresh_copy ? py::tuple(clone_arguments(py::list(args))) : args;
      return timer.time([&] {
        py::object r = model(*warm);
        if (result) *result = std::move(r);
      }, hold);
    }
    graphed.attr("load")(*args);
    Sample s = timer.time([&] { graphed.attr("replay")(); }, hold);
    if (result) *result = graphed.attr("snapshot")();
    return s;
  }
};

// Each pair's samples made the slowest rank's, on every rank: the times (events, host, bound) the
// largest, a throttled or released sample anywhere the pair's, the clock the lowest, so every rank
// keeps and drops the same pairs and sees the same interval.
template <class Pairs>
void slowest_ranks(const RankGroup& ranks, Pairs& pairs) {
  std::vector<double> values;
  for (const auto& p : pairs)
    for (const Sample* s : {&p.ref_sample, &p.cand_sample})
      values.insert(values.end(), {s->event_ms, s->host_ms, s->bound_ms, s->queued_ms, s->throttled ? 1.0 : 0.0,
                                   s->held ? 0.0 : 1.0, s->watchdog ? 1.0 : 0.0, s->sm_mhz ? -double(s->sm_mhz) : 0.0});
  values = ranks.max(values);
  size_t i = 0;
  for (auto& p : pairs)
    for (Sample* s : {&p.ref_sample, &p.cand_sample}) {
      s->event_ms = values[i++];
      s->host_ms = values[i++];
      s->bound_ms = values[i++];
      s->queued_ms = values[i++];
      s->throttled = values[i++] > 0;
      s->held = values[i++] == 0;
      s->watchdog = values[i++] > 0;
      s->sm_mhz = static_cast<unsigned>(-values[i++]);
    }
}

// Whether both models' median GPU time over `pairs` is at least `ms` (none: false).
template <class Pairs>
bool both_medians_at_least(const Pairs& pairs, double ms) {
  if (pairs.empty()) return false;
  std::vector<double> ref_ms, cand_ms;
  for (const auto& p : pairs) {
    ref_ms.push_back(p.ref_sample.event_ms);
    cand_ms.push_back(p.cand_sample.event_ms);
  }
  return std::min(stats::median(ref_ms), stats::median(cand_ms)) >= ms;
}

}  // namespace

RecheckSample::RecheckSample(uint64_t seed, const at::Device& device) {
  seed_everything(seed);
  positions_ = at::randint(int64_t{1} << 62, {kElements}, at::TensorOptions().dtype(at::kLong).device(device));
}

at::Tensor RecheckSample::of(const at::Tensor& output) const {
  if (output.numel() <= kElements) return output.clone();
  return output.reshape({-1}).index_select(0, positions_.remainder(output.numel()));
}

uint64_t forward_seed_for(uint64_t input_seed) { return seed_bits(input_seed * 0xbf58476d1ce4e5b9ULL + 0x94d049bb133111ebULL); }

namespace {

// The untimed calls before a batch keep launch-bound calls from starting cold after the host work
// between batches. Where both models' calls in the last batch took kLongCallMs or more, a cold
// start (tens of microseconds) is within such a call's noise, and the untimed calls cost a pair's
// worth of GPU time each batch: on the H100, level 1 (calls of 1.3-9.2 ms, the large problems 3
// pairs a batch) spent 25 s of a 130 s sweep in them (docs/benchmarks.md, session 39). Then the
// batch goes without, and its first call alternates between the models from batch to batch, so
// that what is left of a cold start falls on each side alike. KFORGE_WORKER_UNTIMED_CALLS=always
// keeps them before every batch, for a benchmark that compares the two in one run.
bool untimed_calls_always() {
  static const bool always = environment_says("KFORGE_WORKER_UNTIMED_CALLS", "always");
  return always;
}

// How much longer than --max-time the timing may go on while the twin's rule is undecided about
// the candidate's reports (stats::BoundChoice::undecided): a forger's excess hidden in a loaded
// machine's noise is charged once enough pairs shrink the noise's allowance below it.
constexpr double kUndecidedTimeFactor = 3.0;

// One timed pair of a batch: its inputs (each model's), what the recheck keeps of each side's
// outputs, and each side's sample.
struct Pair {
  int index;  // from 0; negative: a warm-up pair
  py::tuple ref_args, cand_args;
  RecheckSample keep;
  KeptOutputs ref_kept, cand_kept;
  Sample ref_sample, cand_sample;

  std::string label() const {
    return index < 0 ? "warm-up " + std::to_string(-index) : "timed pair " + std::to_string(index + 1);
  }
};

// Reference and candidate timed in pairs, interleaved ABBA (whichever runs second in a pair gets
// no systematic advantage). Every pair, warm-ups included, gets inputs of its own from a fresh
// seed, so a candidate that caches results by pointer, shape or content meets inputs it has not
// seen; each model gets its own copy (which one gets the generated buffer and which the clone
// alternates), or both the same tensors where that is safe (PairSetup::share_inputs). Pairs run
// in batches of `setup.batch` whose inputs are all made first, after one untimed call of each
// model: within a batch the timed calls follow each other with nothing but the L2 flush between
// them, as a tight loop over one input set would. (Generating and checking between every pair
// left the host's caches cold for the next call: on the H200 the identity intervals of
// sub-millisecond problems grew from under 1% to over 20%.) After each batch every output is
// rechecked against the reference's on a secret sample (RecheckSample) and the integrity watch
// is asked again.
//
// The timing as phases over its own state (nvbench's measure_cold: prepare, warm up, trials,
// summaries): run() takes the warm-up batches, then timed batches until the stopping rule says
// enough; a batch prepares its pairs' inputs, makes the untimed calls, times its pairs ABBA and
// rechecks their outputs; keep() adds the batch's usable pairs to the outcome.
class PairedTiming {
 public:
  PairedTiming(const py::object& ref, const CandidateCall& cand, const std::function<py::list(int)>& inputs_for,
               const protocol::EvalJob& job, uint64_t seed, const at::Device& device, const PairSetup& setup, Timer& timer)
      : cand_(cand), inputs_for_(inputs_for), job_(job), settings_(job.timing), seed_(seed), device_(device),
        setup_(setup), timer_(timer), twin_(static_cast<bool>(setup.reference_process)), hold_(timer.can_hold()),
        ref_side_(make_reference_side(ref)) {}

  TimingOutcome run() {
    CollectorPaused paused;  // for the whole timing
    for (int done = 0; done < settings_.warmup; done += setup_.batch)
      agreed_batch(-settings_.warmup + done, std::min(setup_.batch, settings_.warmup - done), "warm-up");
    const auto t0 = Clock::now();
    for (int pair = 0; pair < settings_.max_samples;) {
      const int count = std::min(setup_.batch, settings_.max_samples - pair);
      const bool held_before = hold_;
      std::vector<Pair> pairs = agreed_batch(pair, count, batch_label(pair, count));
      if (held_before && !hold_ && !out_.ref_ms.empty()) start_again_unheld();
      if (setup_.ranks) slowest_ranks(*setup_.ranks, pairs);  // and so every rank decides long_calls_ alike
      long_calls_ = both_medians_at_least(pairs, kLongCallMs);
      keep(pairs);
      pair += count;
      if (enough(pair, seconds_since(t0))) break;
    }
    if (out_.not_held.empty() && !hold_ && device_.is_cuda()) out_.not_held = "stream not held: " + timer_.why_not_held();
    return std::move(out_);
  }

 private:
  // The reference as timed in this process (no twin): its forward called eagerly, or
  // (--cuda-graph) a captured graph of it replayed.
  TimedSide make_reference_side(const py::object& ref) const {
    const bool graphed_here = settings_.cuda_graph && !twin_;
    TimedSide side = TimedSide::make(ref, "the reference", graphed_here, graphed_here ? inputs_for_(-1000) : py::list());
    side.fresh_copy = !device_.is_cuda();
    return side;
  }

  static std::string batch_label(int first, int count) {
    return count == 1 ? "timed pair " + std::to_string(first + 1)
                      : "timed pairs " + std::to_string(first + 1) + "-" + std::to_string(first + count);
  }

  // Both sides are timed the same way: with the stream held while each forward is queued, unless
  // one of them waits on the GPU inside its forward (the watchdog had to release it). Then the
  // hold is given up for the rest of the evaluation, for both, and pairs with a released or
  // unequal hold are dropped (keep).
  void note_watchdog(const Sample& s, const char* who) {
    if (!s.watchdog || !hold_) return;
    hold_ = false;
    out_.not_held = std::string("stream not held: ") + who + " waits on the GPU inside forward";
  }

  // The hold was given up mid-way: the pairs so far were timed the other way. Start again.
  void start_again_unheld() {
    out_.unheld_pairs += static_cast<int>(out_.ref_ms.size());
    for (auto* v : {&out_.ref_ms, &out_.cand_ms, &out_.ref_host_ms, &out_.cand_host_ms, &out_.cand_bound_ms,
                    &out_.cand_delivery_ms, &out_.twin_delivery_ms})
      v->clear();
    out_.ref_process.clear();
  }

  // The ranks of a multi-rank job start each call together: its collectives meet at once, and no
  // rank's time holds another's wait for it.
  void together() const {
    if (setup_.ranks) setup_.ranks->barrier();
  }

  // A multi-rank job's batches run under the ranks' agreement (PairSetup::agree).
  std::vector<Pair> agreed_batch(int first, int count, const std::string& what) {
    if (!setup_.agree) return run_batch(first, count, what);
    std::vector<Pair> pairs;
    setup_.agree([&] { pairs = run_batch(first, count, what); });
    return pairs;
  }

  // Pairs first..first+count-1 (negative indices: warm-ups); `what` names them in messages.
  std::vector<Pair> run_batch(int first, int count, const std::string& what) {
    const int batch_number = batches_++;
    std::vector<Pair> pairs = prepare(first, count);
    if (first >= 0 && (untimed_calls_always() || !long_calls_)) untimed_calls(first, what, pairs.front().keep);
    for (Pair& p : pairs) {
      const bool last = &p == &pairs.back();
      // ABBA within the batch; a batch's first pair starts with the reference in even batches and
      // with the candidate in odd ones (the same order as by index where batches are odd-sized).
      if ((p.index - first + batch_number) % 2 == 0) {
        p.ref_sample = time_reference(p, what);
        p.cand_sample = time_candidate(p, what, last);
      } else {
        p.cand_sample = time_candidate(p, what, last);
        p.ref_sample = time_reference(p, what);
      }
    }
    TracedPart part("timing recheck");
    for (const Pair& p : pairs) recheck_pair(p.ref_kept, p.cand_kept, p.label(), job_, setup_.roles);
    return pairs;
  }

  // The batch's inputs, all made before any of its calls; each model gets its own copy (which one
  // gets the generated buffer and which the clone alternates every two pairs), or both the same
  // tensors where that is safe (PairSetup::share_inputs).
  std::vector<Pair> prepare(int first, int count) const {
    TracedPart part("timing inputs");
    std::vector<Pair> pairs;
    for (int index = first; index < first + count; ++index) {
      py::list fresh = inputs_for_(index);
      py::list copy = setup_.share_inputs ? fresh : clone_arguments(fresh);
      const bool ref_gets_fresh = (index / 2) % 2 == 0;
      RecheckSample keep(seed_ ^ (0x5bd1e995ULL * static_cast<uint64_t>(index + 1000)), device_);
      pairs.push_back({index, py::tuple(ref_gets_fresh ? fresh : copy), py::tuple(ref_gets_fresh ? copy : fresh),
                       std::move(keep), {}, {}, {}, {}});
    }
    return pairs;
  }

  // One untimed call of each model first, on inputs of their own: the host's caches and the GPU's
  // clocks come back from the input generation and checks between batches before the first timed
  // call. (Not before warm-up pairs: nothing of theirs is kept; nor where the calls are long.)
  void untimed_calls(int first, const std::string& what, const RecheckSample& keep) {
    TracedPart part("timing untimed calls");
    const py::tuple warm(inputs_for_(100000 + first));
    TimedCall call{hold_, py::list(warm), forward_seed_for(seed_ ^ static_cast<uint64_t>(100000 + first)), &keep};
    together();
    note_watchdog(guarded(Verdict::runtime_error, "reference forward (" + what + ", untimed)",
                          [&] {
                            if (twin_) return setup_.reference_process(call);
                            seed_everything(call.forward_seed);
                            return ref_side_.time(timer_, hold_, warm);
                          }),
                  "the reference");
    together();
    call.hold = hold_;  // as the reference's call left it
    note_watchdog(guarded(Verdict::runtime_error, "ModelNew.forward (" + what + ", untimed)", [&] { return cand_(call); }),
                  "ModelNew");
  }

  // The seed both models' generators get before their forward in pair `p` (forward_seed_for).
  uint64_t pair_seed(const Pair& p) const { return forward_seed_for(seed_ ^ static_cast<uint64_t>(p.index + 1000)); }

  Sample time_reference(Pair& p, const std::string& what) {
    together();
    TracedPart part("timing reference");
    py::object result;
    const TimedCall call{hold_, py::list(p.ref_args), pair_seed(p), &p.keep, &p.ref_kept, false, p.index};
    Sample s = guarded(Verdict::runtime_error, "reference forward (" + what + ")", [&] {
      if (twin_) return setup_.reference_process(call);
      seed_everything(call.forward_seed);
      return ref_side_.time(timer_, hold_, p.ref_args, &result);
    });
    note_watchdog(s, "the reference");
    if (!twin_) p.ref_kept = keep_reference_outputs(result, p.keep, p.label());
    return s;
  }

  Sample time_candidate(Pair& p, const std::string& what, bool last_of_batch) {
    together();
    TracedPart part("timing candidate");
    const TimedCall call{hold_, py::list(p.cand_args), pair_seed(p), &p.keep, &p.cand_kept, last_of_batch, p.index};
    Sample s = guarded(Verdict::runtime_error, "ModelNew.forward (" + what + ")", [&] { return cand_(call); });
    note_watchdog(s, "ModelNew");
    return s;
  }

  // The batch's pairs into the outcome, less those a throttled GPU or a released hold spoiled.
  void keep(const std::vector<Pair>& pairs) {
    for (const Pair& p : pairs) {
      if (p.ref_sample.throttled || p.cand_sample.throttled) {
        ++out_.throttled_pairs;
        continue;
      }
      // A sample the watchdog released was held, and the hold is off from then on: both are
      // dropped by comparing each side's hold with the evaluation's.
      if (p.ref_sample.held != hold_ || p.cand_sample.held != hold_) {
        ++out_.unheld_pairs;
        continue;
      }
      for (unsigned mhz : {p.ref_sample.sm_mhz, p.cand_sample.sm_mhz})
        if (mhz) {
          out_.min_mhz = out_.min_mhz ? std::min(out_.min_mhz, mhz) : mhz;
          out_.max_mhz = std::max(out_.max_mhz, mhz);
        }
      out_.ref_ms.push_back(p.ref_sample.event_ms);
      out_.cand_ms.push_back(p.cand_sample.event_ms);
      out_.ref_host_ms.push_back(p.ref_sample.host_ms);
      out_.cand_host_ms.push_back(p.cand_sample.host_ms);
      out_.cand_bound_ms.push_back(p.cand_sample.bound_ms);
      out_.ref_process.push_back(p.ref_sample.process);
      if (p.ref_sample.delivery_ms >= 0 && p.cand_sample.delivery_ms >= 0) {
        out_.cand_delivery_ms.push_back(p.cand_sample.delivery_ms);
        out_.twin_delivery_ms.push_back(p.ref_sample.delivery_ms);
      }
    }
  }

  // The stopping rule: at --max-time, or once --min-samples pairs and --min-time are done, the
  // speedup's interval is within --target-ci and the candidate's reports against the twin's
  // deliveries are decided. (A process that forges its times reports them steadily, so the
  // interval narrows at once; on a loaded machine the deliveries swing, and the forger's excess
  // could sit inside the noise's allowance at the fewest pairs: a native candidate that rewrote its
  // clock was `correct` at 5.0x once in CpuTrust with another test beside it on 2 cores. More pairs
  // shrink the allowance.) Still undecided at --max-time, the timing goes on to
  // kUndecidedTimeFactor times it: at 1 s, under six busy loops on 2 cores, that forger ended
  // undecided and `correct` at 4.2-6.6x in 3 of 6 runs, 20 pairs each (session 43). An honest
  // candidate's excess is the noise's, about as often below the slack as above it, so the
  // extension seldom keeps one long. The ranks' times are the same after slowest_ranks, their
  // clocks are not: rank 0's word.
  bool enough(int pairs_done, double elapsed_s) const {
    // Read only where it decides (the rule takes medians over every pair so far).
    const auto undecided = [this] {
      return stats::choose_bound_against_twin(out_.cand_host_ms, out_.cand_delivery_ms, out_.twin_delivery_ms).undecided();
    };
    bool stop = elapsed_s >= settings_.max_time_s &&
                (elapsed_s >= kUndecidedTimeFactor * settings_.max_time_s || !undecided());
    if (!stop && pairs_done >= settings_.min_samples && elapsed_s >= settings_.min_time_s) {
      auto est = stats::paired_speedup(out_.ref_ms, out_.cand_ms, 300);
      stop = est && est->rel_half_width() <= settings_.target_rel_ci && !undecided();
    }
    if (setup_.ranks) stop = setup_.ranks->rank_zero_says(stop);
    return stop;
  }

  const CandidateCall& cand_;
  const std::function<py::list(int)>& inputs_for_;
  const protocol::EvalJob& job_;
  const protocol::TimingSettings& settings_;
  const uint64_t seed_;
  const at::Device& device_;
  const PairSetup& setup_;
  Timer& timer_;
  const bool twin_;  // the reference timed through PairSetup::reference_process
  bool hold_;        // the stream held while each forward is queued (note_watchdog gives it up)
  TimedSide ref_side_;
  int batches_ = 0;
  bool long_calls_ = false;  // both models' median call in the last batch at least kLongCallMs
  TimingOutcome out_;
};

}  // namespace

TimingOutcome time_pairs(const py::object& ref, const CandidateCall& cand, const std::function<py::list(int)>& inputs_for,
                         const protocol::EvalJob& job, uint64_t seed, const at::Device& device, const PairSetup& setup,
                         Timer& timer) {
  return PairedTiming(ref, cand, inputs_for, job, seed, device, setup, timer).run();
}

// KFORGE_WORKER_PAIRS_PER_BATCH=N (1-100) sets the cap for a benchmark that compares batch sizes in
// one run (bench/boundary_cost.sh's "alt" side); kMostPairsPerBatch otherwise.
static int most_pairs_per_batch() {
  static const int most = static_cast<int>(environment_integer("KFORGE_WORKER_PAIRS_PER_BATCH", 1, 100).value_or(kMostPairsPerBatch));
  return most;
}

// KFORGE_WORKER_BATCH_MEMORY_SHARE=F (0.05-0.75) sets the share of the free device memory a batch's
// inputs may take, for a benchmark that compares it in one run; a quarter otherwise. (Since the
// reference twin, the reference process's batch memory no longer sits beside a timed process's
// first call, where the half below steered plans; on an 80 GB H100, level 1's large problems make
// batches of 3 pairs, and the untimed calls of their eight batches took 25 s of the level's 57 s of
// timing: docs/benchmarks.md, session 38.)
static double batch_memory_share() {
  static const double share = environment_real("KFORGE_WORKER_BATCH_MEMORY_SHARE", 0.05, 0.75).value_or(0.25);
  return share;
}

// How many timed pairs to prepare at once: as many as a quarter of the free device memory (1 GiB
// on the CPU) holds beside one call's outputs, at most most_pairs_per_batch(), and then evened out
// so that whole batches make up the least number of pairs the timing takes. (Half the memory,
// tried in session 18, docs/benchmarks.md, saved a level-1 sweep 8 s of untimed calls on the
// H200, but identity candidates then ran up to 18% faster than their references where cuDNN picks algorithms by the workspace it can
// get: level3/30 LSTM 1.18, level1/83 ConvTranspose2d 1.19, level3/45 MoE 1.07. Batches of 8 for
// the 20 pairs least took 24 pairs in three batches, each batch with its untimed calls, inputs and
// recheck: two of 10 take 20.)
int timing_batch(int64_t pair_bytes, int64_t output_bytes, bool cuda, int min_pairs) {
  int64_t budget = int64_t{1} << 30;
  if (cuda) {
    py::tuple info = py::module_::import("torch").attr("cuda").attr("mem_get_info")();
    budget = static_cast<int64_t>(static_cast<double>(info[0].cast<int64_t>()) * batch_memory_share());
  }
  budget -= output_bytes;
  const int most = most_pairs_per_batch();
  const int fits = pair_bytes <= 0 ? most : static_cast<int>(std::clamp<int64_t>(budget / pair_bytes, 1, most));
  return evened_batch(fits, min_pairs);
}

}  // namespace kforge::worker
