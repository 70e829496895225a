#include "worker/evaluate.hpp"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>

#include <c10/core/GradMode.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <fstream>
#include <map>
#include <sstream>

#include "metrics/kernel_census.hpp"
#include "metrics/statistics.hpp"
#include "worker/integrity.hpp"
#include "worker/launch_recorder.hpp"
#include "worker/native_candidate.hpp"
#include "worker/python_bridge.hpp"
#include "worker/precision_check.hpp"
#include "worker/tensors.hpp"
#include "worker/timer.hpp"

namespace kforge::worker {
namespace {

using Clock = std::chrono::steady_clock;

// Ends the evaluation with a verdict. Thrown inside evaluate(), caught at its top.
struct Failure {
  Verdict verdict;
  std::string message;
  std::string rule;
};

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Runs `fn` and turns whatever it throws into a Failure with `verdict`, prefixed by `what`.
template <class Fn>
auto guarded(Verdict verdict, const std::string& what, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (py::error_already_set& e) {
    PythonError err = describe(e);
    Verdict v = verdict;
    if (err.is_build_failure && verdict == Verdict::load_error) v = Verdict::compile_error;
    // An allocation that failed says so first: torch's wording (an allocator's assert on the CPU)
    // buries it, and for the problem's own steps it means the problem does not fit the device.
    std::string detail = err.is_out_of_memory ? "out of memory: " + err.summary : err.summary;
    if (!err.traceback.empty() && v == Verdict::compile_error) detail += "\n" + err.traceback;
    throw Failure{v, what + ": " + detail, ""};
  } catch (const c10::Error& e) {
    std::string msg = e.what_without_backtrace();
    throw Failure{verdict, what + ": " + msg.substr(0, msg.find('\n')), ""};
  } catch (const std::exception& e) {
    throw Failure{verdict, what + ": " + e.what(), ""};
  }
}

at::ScalarType dtype_of(const std::string& precision) {
  if (precision == "fp16") return at::kHalf;
  if (precision == "bf16") return at::kBFloat16;
  return at::kFloat;
}

py::object build_model(const py::object& cls, const py::list& init_args, const std::string& device,
                       at::ScalarType dtype) {
  seed_everything(42);  // as upstream: both models see the same RNG state, so the same weights
  py::object model = call_on_device(cls, py::tuple(init_args), device);
  model = model.attr("to")(device);
  if (dtype != at::kFloat) {
    // fp32 (and fp64) parameters and buffers only: an fp8 weight a problem stores on purpose keeps its type.
    py::object cast = py::cpp_function(
        [dtype](const at::Tensor& t) -> at::Tensor { return casts_to_precision(t.scalar_type()) ? t.to(dtype) : t; });
    model.attr("_apply")(cast);
  }
  return model;
}

// The reference's FLOPs at the benchmark size, the compute floor's work: torch.utils.flop_counter
// (matmuls, convolutions, attention) over one reference call. Counted before the candidate is
// imported, so nothing it patches changes the count. 0 (no compute floor) when counting fails.
int64_t count_reference_flops(const py::object& ref, const py::list& inputs, bool cuda) {
  try {
    py::module_ flop_counter = py::module_::import("torch.utils.flop_counter");
    // torch wraps a dispatch mode's __torch_dispatch__ so that torch.compile never traces it, and
    // the wrapper imports torch._dynamo on its first call: 2.2 s of a CPU worker's first count on
    // the development machine (0.12 s without it), and on the H200 machine the likely cause of a
    // first job's load phase of 4-5 s at fb3eead (about 0.1 s before the count existed). The
    // count runs in eager mode, where there is nothing to disable, so the wrapper's cache slot is
    // given the function itself and the import never happens. Where torch lays this out
    // otherwise the count is only slower, never different.
    try {
      py::object raw = flop_counter.attr("_FlopCounterMode").attr("__torch_dispatch__").attr("__wrapped__");
      py::setattr(raw, "__dynamo_disable", raw);
    } catch (py::error_already_set&) {
    }
    py::object counter = flop_counter.attr("FlopCounterMode")(py::arg("display") = false);
    counter.attr("__enter__")();
    try {
      ref(*py::tuple(inputs));
      synchronize_device(cuda);
    } catch (...) {
      counter.attr("__exit__")(py::none(), py::none(), py::none());
      throw;
    }
    counter.attr("__exit__")(py::none(), py::none(), py::none());
    return counter.attr("get_total_flops")().cast<int64_t>();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kforge worker: FLOPs not counted (no compute floor): %s\n", e.what());
    return 0;
  }
}

// What get_inputs() returned, checked: a list or tuple of tensors and plain numbers (what a
// forward can take from any harness). Anything else is the problem's fault, said as such, not
// the candidate's when its forward trips over it.
py::list checked_inputs(const py::object& raw) {
  if (!py::isinstance<py::list>(raw) && !py::isinstance<py::tuple>(raw))
    throw Failure{Verdict::load_error,
                  "problem: get_inputs() returned a " + std::string(py::str(py::type::handle_of(raw).attr("__name__"))) +
                      ", not a list of forward's arguments",
                  ""};
  py::list items(raw);
  for (size_t i = 0; i < items.size(); ++i) {
    py::handle item = items[i];
    bool number = py::isinstance<py::int_>(item) || py::isinstance<py::float_>(item) || py::isinstance<py::bool_>(item);
    if (THPVariable_Check(item.ptr()) || number || item.is_none()) continue;
    std::string shown = py::str(py::repr(item));
    if (shown.size() > 40) shown = shown.substr(0, 40) + "...";
    throw Failure{Verdict::load_error,
                  "problem: get_inputs()[" + std::to_string(i) + "] is a " +
                      std::string(py::str(py::type::handle_of(item).attr("__name__"))) + " (" + shown +
                      "); forward's arguments must be tensors or plain numbers",
                  ""};
  }
  return items;
}

py::list fresh_inputs(const py::module_& problem, uint64_t seed, const std::string& device_name,
                      const at::Device& device, at::ScalarType dtype) {
  py::object raw = guarded(Verdict::load_error, "problem: get_inputs() failed", [&] {
    seed_everything(seed);
    return call_on_device(problem.attr("get_inputs"), py::tuple(), device_name);
  });
  return guarded(Verdict::runtime_error, "problem: moving get_inputs() to " + device_name,
                 [&] { return prepare_arguments(checked_inputs(raw), device, dtype); });
}

// Module constants a problem declares other values for: `cpu_sizes = {"ROWS": 2048}` (on the
// CPU, GPU-sized problems of 1-15 ms on an H200 would take minutes per call) and `extra_sizes =
// [{"ROWS": 1000}, ...]` (other shapes a correct candidate must handle; `cpu_extra_sizes` on the
// CPU, where given). Only names the file defines, and only numbers, so a typo fails loudly.
py::dict checked_sizes(const py::module_& problem, const py::handle& sizes, const std::string& what) {
  if (!py::isinstance<py::dict>(sizes))
    throw Failure{Verdict::load_error, "problem: " + what + " must be a dict of constant name to number", ""};
  for (auto [key, value] : sizes.cast<py::dict>()) {
    std::string name = py::str(key);
    if (!py::isinstance<py::str>(key) || !py::hasattr(problem, name.c_str()))
      throw Failure{Verdict::load_error, "problem: " + what + " names " + name + ", which the file does not define", ""};
    if (!(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) || py::isinstance<py::bool_>(value))
      throw Failure{Verdict::load_error, "problem: " + what + "[" + name + "] is not a number", ""};
  }
  return sizes.cast<py::dict>();
}

void apply_cpu_sizes(const py::module_& problem) {
  if (!py::hasattr(problem, "cpu_sizes")) return;
  for (auto [key, value] : checked_sizes(problem, problem.attr("cpu_sizes"), "cpu_sizes"))
    problem.attr(key) = value;
}

std::vector<py::dict> extra_sizes_of(const py::module_& problem, bool cuda) {
  const char* name = !cuda && py::hasattr(problem, "cpu_extra_sizes") ? "cpu_extra_sizes" : "extra_sizes";
  std::vector<py::dict> out;
  if (!py::hasattr(problem, name)) return out;
  py::object list = problem.attr(name);
  if (!py::isinstance<py::list>(list) && !py::isinstance<py::tuple>(list))
    throw Failure{Verdict::load_error, std::string("problem: ") + name + " must be a list of dicts", ""};
  for (auto item : list) out.push_back(checked_sizes(problem, item, name));
  return out;
}

// Sets a problem's constants for as long as it lives, then puts the old values back.
class SizesApplied {
 public:
  SizesApplied(const py::module_& problem, const py::dict& sizes) : problem_(problem) {
    for (auto [key, value] : sizes) {
      saved_.emplace_back(py::str(key), problem_.attr(key));
      problem_.attr(key) = value;
      text_ += (text_.empty() ? "" : ", ") + std::string(py::str(key)) + "=" + std::string(py::str(value));
    }
  }
  ~SizesApplied() {
    for (auto& [name, value] : saved_) problem_.attr(name) = value;
  }
  SizesApplied(const SizesApplied&) = delete;
  SizesApplied& operator=(const SizesApplied&) = delete;
  const std::string& describe() const { return text_; }

 private:
  py::module_ problem_;
  std::vector<std::pair<py::str, py::object>> saved_;
  std::string text_;
};

// Whether the CUDA context still works after an error: an illegal address or a device-side
// assert poisons it for good, and only a new process recovers.
bool cuda_context_alive() {
  try {
    synchronize_device(true);
    at::Tensor probe = at::ones({1}, at::TensorOptions().device(at::kCUDA));
    return probe.sum().item<float>() == 1.0f;
  } catch (...) {
    return false;
  }
}

py::object load_kernelbench_candidate(const protocol::EvalJob& job, const py::list& init_args,
                                     const std::string& device_name, at::ScalarType dtype) {
  py::module_ candidate = guarded(Verdict::load_error, "importing the candidate failed",
                                  [&] { return import_file(job.candidate_path, "kforge_candidate_"); });
  if (!py::hasattr(candidate, "ModelNew"))
    throw Failure{Verdict::load_error, "the candidate defines no ModelNew class", ""};
  return guarded(Verdict::load_error, "ModelNew(*get_init_inputs()) failed",
                 [&] { return build_model(candidate.attr("ModelNew"), init_args, device_name, dtype); });
}

// A native candidate gets copies of the reference's parameters and outputs shaped like the
// reference's, learnt from one reference call on the first trial's inputs.
py::object load_native_candidate(const protocol::EvalJob& job, const py::module_& problem, const py::object& ref,
                                 const py::list& init_args, const std::string& device_name, const at::Device& device,
                                 at::ScalarType dtype) {
  std::vector<double> init_scalars;
  for (auto arg : init_args)
    if (py::isinstance<py::bool_>(arg) || py::isinstance<py::int_>(arg) || py::isinstance<py::float_>(arg))
      init_scalars.push_back(arg.cast<double>());
  uint64_t seed = job.trial_seeds.empty() ? 1 : job.trial_seeds.front();
  py::list probe = fresh_inputs(problem, seed, device_name, device, dtype);
  std::vector<OutputSpec> specs = guarded(Verdict::runtime_error, "the reference Model.forward raised", [&] {
    return output_specs_of(ref(*py::tuple(clone_arguments(probe))));
  });
  std::vector<std::pair<std::string, at::Tensor>> params;
  py::dict state = ref.attr("state_dict")();
  for (auto [name, value] : state)
    if (THPVariable_Check(value.ptr()))
      params.emplace_back(name.cast<std::string>(), THPVariable_Unpack(value.ptr()).detach().clone());
  bool cuda = job.device == "cuda";
  return guarded(Verdict::load_error, "loading the native candidate failed", [&] {
    auto native = std::make_unique<NativeCandidate>(job.candidate_library, std::move(init_scalars), std::move(params),
                                                    std::move(specs), cuda);
    return py::cast(native.release(), py::return_value_policy::take_ownership);
  });
}

struct TimingOutcome {
  std::vector<double> ref_ms, cand_ms, ref_host_ms, cand_host_ms;
  int throttled_pairs = 0;          // dropped: the GPU throttled during one of the two calls
  int unheld_pairs = 0;             // dropped: timed while the hold was given up (see time_pairs)
  unsigned min_mhz = 0, max_mhz = 0;  // SM clock range over the kept samples (0: not sampled)
  std::string not_held;             // why not, when the timer could hold (for the message)
};

// Elements compared per output when a timed pair is rechecked: all of a small output, a secret
// sample of 2^20 of a large one. A replayed, cached or skipped result differs almost everywhere,
// so a sample finds it, for about 0.1 ms instead of a full comparison's 20 ms on 2.4 GB.
constexpr int64_t kRecheckSample = 1 << 20;

std::vector<at::Tensor> sample_elements(const std::vector<at::Tensor>& ts, const std::vector<at::Tensor>& like,
                                        const at::Tensor& index) {
  std::vector<at::Tensor> out;
  for (size_t i = 0; i < ts.size(); ++i) {
    const at::Tensor& t = ts[i];
    bool comparable = i < like.size() && like[i].sizes() == t.sizes() && like[i].scalar_type() == t.scalar_type();
    if (!comparable || t.numel() <= kRecheckSample || !index.defined()) {
      out.push_back(t);
      continue;
    }
    out.push_back(t.reshape({-1}).index_select(0, index.remainder(t.numel())));
  }
  return out;
}

// The candidate's output of a timed call against the reference's on the same inputs.
void recheck_pair(const py::object& ref_result, const py::object& cand_result, const std::string& label,
                  const protocol::EvalJob& job, uint64_t seed, const at::Device& device) {
  Outputs c = normalize_outputs(cand_result);
  if (!c.error.empty())
    throw Failure{Verdict::rejected, label + ": " + c.error, c.subclass ? "tensor-subclass" : "timing-recheck"};
  Outputs r = normalize_outputs(ref_result);
  if (!r.error.empty()) throw Failure{Verdict::runtime_error, label + ": the reference's " + r.error, ""};
  at::Tensor index;
  int64_t largest = 0;
  for (const auto& t : r.tensors) largest = std::max<int64_t>(largest, t.numel());
  if (largest > kRecheckSample) {
    seed_everything(seed);
    index = at::randint(largest, {kRecheckSample}, at::TensorOptions().dtype(at::kLong).device(device));
  }
  Comparison cmp = guarded(Verdict::runtime_error, label + ": comparing outputs", [&] {
    return compare_outputs(sample_elements(r.tensors, c.tensors, index), sample_elements(c.tensors, r.tensors, index),
                           job.atol, job.rtol);
  });
  if (!cmp.match)
    throw Failure{Verdict::rejected,
                  label + ": the candidate's output differs from the reference's on the same fresh inputs (" +
                      cmp.message + "), after it passed the correctness trials: a cached, replayed or skipped result",
                  "timing-recheck"};
}

// Reference and candidate timed in pairs, interleaved ABBA (whichever runs second in a pair gets
// no systematic advantage). Every pair, warm-ups included, gets inputs of its own from a fresh
// seed, so a candidate that caches results by pointer, shape or content meets inputs it has not
// seen; each model gets its own copy (which one gets the generated buffer and which the clone
// alternates). Pairs run in batches of `batch` whose inputs are all made first, after one
// untimed call of each model: within a batch the timed calls follow each other with nothing but
// the L2 flush between them, as a tight loop over one input set would. (Generating and checking
// between every pair left the host's caches cold for the next call: on the H200 the identity
// intervals of sub-millisecond problems grew from under 1% to over 20%.) After each batch every output is rechecked against the
// reference's and the integrity watch is asked again.
//
// One model as the timing loop calls it. Eager: forward on the pair's inputs inside the timed
// window. Graphed (--cuda-graph, python/kforge_graphs.py): the forward captured once into a CUDA
// graph; per call the inputs are copied into the graph's buffers before the window, only the
// replay is inside it, and the output is copied out after it (the next replay overwrites it).
struct TimedSide {
  py::object model;
  py::object graphed;  // a kforge_graphs.GraphedForward, or None

  static TimedSide make(const py::object& model, const std::string& who, bool cuda_graph, const py::list& example) {
    TimedSide side{model, py::none()};
    if (!cuda_graph) return side;
    side.graphed = guarded(Verdict::runtime_error, "--cuda-graph: " + who + " could not be captured in a CUDA graph", [&] {
      return py::module_::import("kforge_graphs").attr("GraphedForward")(model, example);
    });
    return side;
  }

  Sample time(Timer& timer, bool hold, const py::tuple& args, py::object* result = nullptr) const {
    if (graphed.is_none()) return timer.time([&] {
      py::object r = model(*args);
      if (result) *result = std::move(r);
    }, hold);
    graphed.attr("load")(*args);
    Sample s = timer.time([&] { graphed.attr("replay")(); }, hold);
    if (result) *result = graphed.attr("snapshot")();
    return s;
  }
};

TimingOutcome time_pairs(const py::object& ref, const py::object& cand, const std::function<py::list(int)>& inputs_for,
                         const protocol::EvalJob& job, uint64_t seed, const at::Device& device, int batch,
                         Timer& timer, const std::function<void(const std::string&)>& enforce) {
  const protocol::TimingSettings& settings = job.timing;
  TimingOutcome out;
  // Python's cyclic collector runs when allocations pile up; a collection inside a timed call is
  // noise, so it stays off while timing.
  py::module_ gc = py::module_::import("gc");
  const bool gc_was_enabled = gc.attr("isenabled")().cast<bool>();
  gc.attr("disable")();
  struct GcRestore {
    py::module_& gc;
    bool enable;
    ~GcRestore() {
      if (enable) gc.attr("enable")();
    }
  } restore{gc, gc_was_enabled};

  // Each side as timed: its forward called eagerly, or (--cuda-graph) a captured graph of it
  // replayed, its inputs loaded before the timed window and its output copied after.
  const bool graphed = settings.cuda_graph;
  TimedSide ref_side = TimedSide::make(ref, "the reference", graphed, graphed ? inputs_for(-1000) : py::list());
  TimedSide cand_side = TimedSide::make(cand, "ModelNew.forward", graphed, graphed ? inputs_for(-1001) : py::list());

  // Both sides are timed the same way: with the stream held while each forward is queued, unless
  // one of them waits on the GPU inside its forward (the watchdog had to release it). Then the
  // hold is given up for the rest of the evaluation, for both, and pairs with a released or
  // unequal hold are dropped.
  bool hold = timer.can_hold();
  auto note_watchdog = [&](const Sample& s, const char* who) {
    if (!s.watchdog || !hold) return;
    hold = false;
    out.not_held = std::string("stream not held: ") + who + " waits on the GPU inside forward";
  };

  struct Pair {
    int index;
    py::tuple ref_args, cand_args;
    py::object ref_result, cand_result;
    Sample ref_sample, cand_sample;
  };
  // Pairs first..first+count-1 (negative indices: warm-ups); `what` names them in messages.
  auto run_batch = [&](int first, int count, const std::string& what) {
    std::vector<Pair> pairs;
    for (int index = first; index < first + count; ++index) {
      py::list fresh = inputs_for(index);
      py::list copy = clone_arguments(fresh);
      bool ref_gets_fresh = (index / 2) % 2 == 0;
      pairs.push_back({index, py::tuple(ref_gets_fresh ? fresh : copy), py::tuple(ref_gets_fresh ? copy : fresh),
                       py::object(), py::object(), {}, {}});
    }
    // One untimed call of each model first, on inputs of its own: the host's caches and the GPU's
    // clocks come back from the input generation and checks between batches before the first
    // timed call, which would otherwise always be the reference's (even indices go first).
    {
      py::tuple warm(inputs_for(100000 + first));
      note_watchdog(guarded(Verdict::runtime_error, "reference forward (" + what + ", untimed)",
                            [&] { return ref_side.time(timer, hold, warm); }),
                    "the reference");
      note_watchdog(guarded(Verdict::runtime_error, "ModelNew.forward (" + what + ", untimed)",
                            [&] { return cand_side.time(timer, hold, py::tuple(clone_arguments(py::list(warm)))); }),
                    "ModelNew");
    }
    for (auto& p : pairs) {
      auto time_ref = [&] {
        Sample s = guarded(Verdict::runtime_error, "reference forward (" + what + ")",
                           [&] { return ref_side.time(timer, hold, p.ref_args, &p.ref_result); });
        note_watchdog(s, "the reference");
        return s;
      };
      auto time_cand = [&] {
        Sample s = guarded(Verdict::runtime_error, "ModelNew.forward (" + what + ")",
                           [&] { return cand_side.time(timer, hold, p.cand_args, &p.cand_result); });
        note_watchdog(s, "ModelNew");
        return s;
      };
      if (p.index % 2 == 0) {
        p.ref_sample = time_ref();
        p.cand_sample = time_cand();
      } else {
        p.cand_sample = time_cand();
        p.ref_sample = time_ref();
      }
    }
    enforce(what);
    for (const auto& p : pairs)
      recheck_pair(p.ref_result, p.cand_result,
                   p.index < 0 ? "warm-up " + std::to_string(-p.index) : "timed pair " + std::to_string(p.index + 1),
                   job, seed ^ (0x5bd1e995ULL * static_cast<uint64_t>(p.index + 1000)), device);
    return pairs;
  };

  for (int done = 0; done < settings.warmup; done += batch) {
    int count = std::min(batch, settings.warmup - done);
    run_batch(-settings.warmup + done, count, "warm-up");
  }
  auto t0 = Clock::now();
  for (int pair = 0; pair < settings.max_samples;) {
    int count = std::min(batch, settings.max_samples - pair);
    std::string what = count == 1 ? "timed pair " + std::to_string(pair + 1)
                                  : "timed pairs " + std::to_string(pair + 1) + "-" + std::to_string(pair + count);
    const bool held_before = hold;
    auto batch_pairs = run_batch(pair, count, what);
    if (held_before && !hold && !out.ref_ms.empty()) {
      // The hold was given up mid-way: the pairs so far were timed the other way. Start again.
      out.unheld_pairs += static_cast<int>(out.ref_ms.size());
      out.ref_ms.clear();
      out.cand_ms.clear();
      out.ref_host_ms.clear();
      out.cand_host_ms.clear();
    }
    for (const auto& p : batch_pairs) {
      if (p.ref_sample.throttled || p.cand_sample.throttled) {
        ++out.throttled_pairs;
        continue;
      }
      // A sample the watchdog released was held, and the hold is off from then on: both are
      // dropped by comparing each side's hold with the evaluation's.
      if (p.ref_sample.held != hold || p.cand_sample.held != hold) {
        ++out.unheld_pairs;
        continue;
      }
      for (unsigned mhz : {p.ref_sample.sm_mhz, p.cand_sample.sm_mhz})
        if (mhz) {
          out.min_mhz = out.min_mhz ? std::min(out.min_mhz, mhz) : mhz;
          out.max_mhz = std::max(out.max_mhz, mhz);
        }
      out.ref_ms.push_back(p.ref_sample.event_ms);
      out.cand_ms.push_back(p.cand_sample.event_ms);
      out.ref_host_ms.push_back(p.ref_sample.host_ms);
      out.cand_host_ms.push_back(p.cand_sample.host_ms);
    }
    pair += count;
    double elapsed = seconds_since(t0);
    if (elapsed >= settings.max_time_s) break;
    if (pair < settings.min_samples || elapsed < settings.min_time_s) continue;
    auto est = stats::paired_speedup(out.ref_ms, out.cand_ms, 300);
    if (est && est->rel_half_width() <= settings.target_rel_ci) break;
  }
  if (out.not_held.empty() && !hold && device.is_cuda()) out.not_held = "stream not held: " + timer.why_not_held();
  return out;
}

// How many timed pairs to prepare at once: up to 8, as many as a quarter of the free device memory
// (1 GiB on the CPU) holds, counting per pair two copies of the inputs and both models' outputs.
int timing_batch(int64_t pair_bytes, bool cuda) {
  int64_t budget = int64_t{1} << 30;
  if (cuda) {
    py::tuple info = py::module_::import("torch").attr("cuda").attr("mem_get_info")();
    budget = info[0].cast<int64_t>() / 4;
  }
  if (pair_bytes <= 0) return 8;
  return static_cast<int>(std::clamp<int64_t>(budget / pair_bytes, 1, 8));
}

int64_t bytes_of(const py::list& args) {
  int64_t total = 0;
  for (auto a : args)
    if (THPVariable_Check(a.ptr())) total += THPVariable_Unpack(a.ptr()).nbytes();
  return total;
}

int64_t bytes_of(const std::vector<at::Tensor>& ts) {
  int64_t total = 0;
  for (const auto& t : ts) total += t.nbytes();
  return total;
}

// A kernel launched by another thread after forward returned: work done behind the caller's
// back by a thread the candidate left running (a Python thread is caught by IntegrityWatch; this
// catches native ones, a load_inline extension's std::thread included).
void reject_late_launches(const RecordedForward& rec, const std::string& trial) {
  if (rec.late_from_other_threads.empty()) return;
  const auto& late = rec.late_from_other_threads.front();
  throw Failure{Verdict::rejected,
                trial + ": kernel " + demangled(late.kernel) + " was launched by another thread after forward returned (" +
                    std::to_string(rec.late_from_other_threads.size()) + " such launch(es), from " +
                    (late.object.empty() ? std::string("unknown code") : late.object) + ")",
                "thread-injection"};
}

// What the first trial's launches say under the fallback policy: under --fallback strict a
// forward without a kernel of its own is a PyTorch fallback. Otherwise, the census for the message.
std::string judge_census(const RecordedForward& rec, census::FallbackPolicy policy, const std::string& trial) {
  if (!rec.recorded) {
    if (policy == census::FallbackPolicy::strict)
      throw Failure{Verdict::runtime_error,
                    "kforge could not record the kernels launched (" + rec.unavailable +
                        "), so --fallback strict cannot be checked",
                    ""};
    return "kernels not recorded: " + rec.unavailable;
  }
  census::Summary summary = census::summarize(rec.during);
  if (auto violation = census::fallback_violation(policy, summary))
    throw Failure{Verdict::rejected, trial + ": " + *violation, "pytorch-fallback"};
  return census::describe(summary);
}

}  // namespace

protocol::JobResult evaluate(const protocol::EvalJob& job, const WorkerContext& context) {
  protocol::JobResult res;
  res.trials_total = static_cast<int>(job.trial_seeds.size());
  const bool cuda = job.device == "cuda";
  const std::string device_name = cuda ? "cuda:0" : "cpu";
  const at::Device device = cuda ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU);
  const at::ScalarType dtype = dtype_of(job.precision);
  const auto fallback = census::policy_from_string(job.fallback).value_or(census::FallbackPolicy::mixed);
  c10::AutoGradMode no_grad(false);  // as upstream: forward under torch.no_grad()
  auto phase_start = Clock::now();
  double* phase_seconds = &res.load_s;  // the phase under way, charged if the job ends in it

  try {
    if (cuda && !context.cuda) throw Failure{Verdict::runtime_error, "this worker has no CUDA device", ""};

    // Load: problem, init inputs, reference, candidate.
    py::module_ problem = guarded(Verdict::load_error, "problem " + job.problem_path,
                                  [&] { return import_file(job.problem_path, "kforge_problem_"); });
    for (const char* name : {"Model", "get_inputs", "get_init_inputs"})
      if (!py::hasattr(problem, name))
        throw Failure{Verdict::load_error, std::string("problem file defines no ") + name, ""};
    if (!cuda) apply_cpu_sizes(problem);
    const auto extra_sizes = extra_sizes_of(problem, cuda);  // read now: a broken one fails before any trial
    py::list init_args = guarded(Verdict::load_error, "problem: get_init_inputs() failed", [&] {
      seed_everything(42);
      py::object raw = call_on_device(problem.attr("get_init_inputs"), py::tuple(), device_name);
      return prepare_arguments(py::list(raw), device, dtype);
    });
    py::object ref = guarded(Verdict::load_error, "problem: Model(*get_init_inputs()) failed",
                             [&] { return build_model(problem.attr("Model"), init_args, device_name, dtype); });
    if (cuda && !job.trial_seeds.empty()) {
      // Counted once per problem text and precision in this worker: the count depends on shapes
      // only, and several candidates of one problem (samples, `kforge serve`) would repeat a
      // reference call each. The first count comes before any candidate of the problem is imported.
      static std::map<std::string, int64_t> flops_by_problem;
      std::ostringstream text;
      text << std::ifstream(job.problem_path).rdbuf();
      std::string key = job.precision + '\n' + text.str();
      auto known = flops_by_problem.find(key);
      if (known != flops_by_problem.end()) {
        res.flops = known->second;
      } else {
        res.flops = count_reference_flops(
            ref, fresh_inputs(problem, job.trial_seeds.front(), device_name, device, dtype), cuda);
        flops_by_problem.emplace(std::move(key), res.flops);  // 0 too: a failed count fails again
      }
    }
    // What the candidate must leave as it found it; snapshot before it is imported.
    IntegrityWatch watch;
    auto enforce = [&](const std::string& when) {
      if (auto v = watch.check()) throw Failure{Verdict::rejected, when + ": " + v->message, v->rule};
    };
    py::object cand = job.candidate_format == "kernelbench"
                          ? load_kernelbench_candidate(job, init_args, device_name, dtype)
                          : load_native_candidate(job, problem, ref, init_args, device_name, device, dtype);
    synchronize_device(cuda);
    enforce("after loading the candidate");
    res.load_s = seconds_since(phase_start);

    // Correctness: one trial per secret seed, fresh inputs each time.
    int64_t pair_bytes = 0;  // what one timed pair holds: two input copies and two outputs
    phase_start = Clock::now();
    phase_seconds = &res.correctness_s;
    std::string fp64_note;   // the precision check's figures, for the message of a correct verdict
    std::string clock_note;  // the SM clock range while timing, and dropped throttled pairs
    std::string kernels_note;  // which kernels the candidate launched (CUDA)
    // One trial: fresh inputs from `seed`, the candidate first, then the reference; compared.
    // The first trial also records the bytes one call must move, and in an fp32 evaluation
    // measures both results against an fp64 reference.
    auto run_trial = [&](const std::string& trial, uint64_t seed, bool first) {
      py::list inputs = fresh_inputs(problem, seed, device_name, device, dtype);
      py::list cand_in = clone_arguments(inputs), ref_in = clone_arguments(inputs);
      if (cuda) poison_free_cuda_memory();
      // The first CUDA trial records which kernels the candidate's forward launched, and whose.
      std::optional<LaunchRecorder> recorder;
      const auto recording_start = Clock::now();
      if (first && cuda) recorder.emplace().start();
      py::object cand_result = guarded(Verdict::runtime_error, "ModelNew.forward raised (" + trial + ")", [&] {
        py::object r = cand(*py::tuple(cand_in));
        if (recorder) recorder->forward_returned();
        synchronize_device(cuda);
        return r;
      });
      enforce(trial);
      Outputs cand_out = normalize_outputs(cand_result);
      if (cand_out.subclass) throw Failure{Verdict::rejected, trial + ": " + cand_out.error, "tensor-subclass"};
      if (!cand_out.error.empty()) throw Failure{Verdict::incorrect, trial + ": " + cand_out.error, ""};
      py::object ref_result = guarded(Verdict::runtime_error, "the reference Model.forward raised (" + trial + ")", [&] {
        py::object r = ref(*py::tuple(ref_in));
        synchronize_device(cuda);
        return r;
      });
      // The recording ends once the reference has run: a kernel another thread launched after
      // forward returned is injection even when it did not finish in time to be compared.
      RecordedForward recorded;
      if (recorder) {
        recorded = recorder->stop();
        std::fprintf(stderr, "kforge worker: kernel launches recorded in %.3f s (%zu during forward)\n",
                     seconds_since(recording_start), recorded.during.size());
        reject_late_launches(recorded, trial);
      }
      Outputs ref_out = normalize_outputs(ref_result);
      if (!ref_out.error.empty())
        throw Failure{Verdict::runtime_error, "the reference's " + ref_out.error + " (a broken problem)", ""};

      auto cand_mutation = find_mutation(inputs, cand_in);
      auto ref_mutation = find_mutation(inputs, ref_in);
      if (cand_mutation && !(ref_mutation && ref_mutation->argument == cand_mutation->argument))
        throw Failure{Verdict::rejected,
                      trial + ": the candidate modified input " + std::to_string(cand_mutation->argument) +
                          " in place (" + std::to_string(cand_mutation->changed) +
                          " elements changed); the reference does not",
                      "input-mutation"};

      Comparison cmp = guarded(Verdict::runtime_error, "comparing outputs",
                               [&] { return compare_outputs(ref_out.tensors, cand_out.tensors, job.atol, job.rtol); });
      res.max_abs_error = std::max(res.max_abs_error.value_or(0.0), cmp.max_abs_error);
      res.max_rel_error = std::max(res.max_rel_error.value_or(0.0), cmp.max_rel_error);
      if (!cmp.match) throw Failure{Verdict::incorrect, trial + ": " + cmp.message, ""};
      if (recorder) kernels_note = judge_census(recorded, fallback, trial);
      // What one call reads and writes: the speed-of-light floor's bytes (at the benchmark size),
      // and half of what a timed pair holds (two copies of each).
      const int64_t call_bytes = bytes_of(inputs) + bytes_of(ref_out.tensors);
      pair_bytes = std::max(pair_bytes, 2 * call_bytes);
      if (first) res.min_bytes = call_bytes;
      if (first && dtype == at::kFloat) {
        PrecisionCheck pc = guarded(Verdict::runtime_error, "the fp64 reference (" + trial + ")", [&] {
          PrecisionCheck c = check_against_fp64(ref, inputs, ref_out.tensors, cand_out.tensors);
          synchronize_device(cuda);
          return c;
        });
        if (pc.downcast) throw Failure{Verdict::rejected, trial + ": " + pc.message, "precision-downcast"};
        char figures[128];
        std::snprintf(figures, sizeof figures, "error vs fp64 %.1e of the largest value (reference %.1e)",
                      pc.candidate_error, pc.reference_error);
        fp64_note = pc.ran ? figures : "fp64 check skipped: " + pc.skipped;
      }
    };
    for (size_t t = 0; t < job.trial_seeds.size(); ++t) {
      run_trial("trial " + std::to_string(t + 1) + "/" + std::to_string(job.trial_seeds.size()), job.trial_seeds[t],
                t == 0);
      ++res.trials_passed;
      // Native threads are watched for native candidates only, once torch's lazily started pools
      // exist: a Python candidate's own threads each get an OpenMP team of their own that
      // outlives them, and its threads are watched through Python's threading module.
      if (t == 0 && job.candidate_format != "kernelbench") watch.settle_native_threads();
    }
    // Shape specialisation: one more trial at each other size the problem declares. (Native
    // candidates get outputs shaped once, at load, so they are judged at the benchmark size only.)
    if (job.candidate_format == "kernelbench") {
      uint64_t extra_seed = job.trial_seeds.empty() ? 7 : job.trial_seeds.front() ^ 0xc2b2ae3d27d4eb4fULL;
      for (const auto& sizes : extra_sizes) {
        SizesApplied applied(problem, sizes);
        run_trial("at the extra size " + applied.describe(), (extra_seed++) & ((1ULL << 53) - 1), false);
      }
    }
    res.correctness_s = seconds_since(phase_start);

    // Timing: fresh inputs for every pair, each model on its own copy, interleaved.
    phase_start = Clock::now();
    phase_seconds = &res.timing_s;
    if (job.time_candidate) {
      const uint64_t timing_seed = job.trial_seeds.empty() ? 0 : job.trial_seeds.back() ^ 0x9e3779b97f4a7c15ULL;
      auto inputs_for = [&](int index) {
        uint64_t seed = (timing_seed + 0x2545f4914f6cdd1dULL * static_cast<uint64_t>(index + 1000)) & ((1ULL << 53) - 1);
        return fresh_inputs(problem, seed, device_name, device, dtype);
      };
      if (py::isinstance<NativeCandidate>(cand)) cand.cast<NativeCandidate&>().set_poison_outputs(false);
      auto timer = cuda ? make_cuda_timer(context.l2_bytes, context.clock.get(), context.hold.get(), context.why_not_held) : make_cpu_timer();
      TimingOutcome timed = time_pairs(ref, cand, inputs_for, job, timing_seed, device,
                                       timing_batch(pair_bytes, cuda), *timer, enforce);
      res.ref_ms = std::move(timed.ref_ms);
      res.cand_ms = std::move(timed.cand_ms);
      res.ref_host_ms = std::move(timed.ref_host_ms);
      res.cand_host_ms = std::move(timed.cand_host_ms);
      if (timed.max_mhz)
        clock_note = "SM clock " + std::to_string(timed.min_mhz) + "-" + std::to_string(timed.max_mhz) + " MHz";
      if (timed.throttled_pairs)
        clock_note += (clock_note.empty() ? "" : ", ") + std::to_string(timed.throttled_pairs) +
                      " pairs dropped: the GPU throttled (thermal, hardware slowdown or power brake)";
      if (!timed.not_held.empty())
        clock_note += (clock_note.empty() ? "" : "; ") + timed.not_held +
                      (timed.unheld_pairs ? " (" + std::to_string(timed.unheld_pairs) + " pairs dropped)" : "");
    }
    res.timing_s = seconds_since(phase_start);
    res.verdict = Verdict::correct;
    res.message = std::to_string(res.trials_passed) + "/" + std::to_string(res.trials_total) + " trials passed; " +
                  std::to_string(res.cand_ms.size()) + " timed pairs" + (fp64_note.empty() ? "" : "; " + fp64_note) +
                  (job.timing.cuda_graph ? "; timed as CUDA graph replays" : "") +
                  (kernels_note.empty() ? "" : "; " + kernels_note) +
                  (clock_note.empty() ? "" : "; " + clock_note);
  } catch (const Failure& f) {
    *phase_seconds = seconds_since(phase_start);
    res.verdict = f.verdict;
    res.message = f.message;
    res.rule = f.rule;
  } catch (py::error_already_set& e) {  // raised outside a guarded call: treat as the candidate's
    *phase_seconds = seconds_since(phase_start);
    res.verdict = Verdict::runtime_error;
    res.message = describe(e).summary;
  } catch (const std::exception& e) {
    res.verdict = Verdict::runtime_error;
    res.message = std::string("worker: ") + e.what();
  }
  if (cuda && res.verdict != Verdict::correct && !cuda_context_alive()) {
    res.worker_must_restart = true;
    res.message += " (the CUDA context was lost; the worker was restarted)";
  }
  // A rejected candidate may have left the worker changed (patched functions, a running thread or
  // child, a global flag): no later job runs in it.
  if (res.verdict == Verdict::rejected) res.worker_must_restart = true;
  return res;
}

}  // namespace kforge::worker
