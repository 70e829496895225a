#include "worker/evaluate.hpp"

#include "core/seeds.hpp"
#include "worker/cpu_pin.hpp"
#include "core/rules.hpp"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include <sys/stat.h>

#include "common/environment_says.hpp"
#include "metrics/statistics.hpp"
#include "metrics/timing_clock.hpp"
#include "pool/resource_watch.hpp"
#include "pool/task_count.hpp"
#include "worker/failure.hpp"
#include "worker/file_text.hpp"
#include "worker/input_layouts.hpp"
#include "worker/paired_timing.hpp"
#include "worker/phase_trace.hpp"
#include "worker/plan_choice.hpp"
#include "worker/precision_check.hpp"
#include "worker/problem_module.hpp"
#include "worker/python_bridge.hpp"
#include "worker/reference_twin.hpp"
#include "worker/rank_group.hpp"
#include "worker/remote_candidate.hpp"
#include "worker/tensors.hpp"
#include "worker/timer.hpp"
#include "worker/training.hpp"

namespace kforge::worker {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The reference's FLOPs at the benchmark size, the compute floor's work: torch.utils.flop_counter
// (matmuls, convolutions, attention; kforge_flops.py's formula for a convolution's backward) over
// one reference call. 0 (no compute floor) when counting fails.
int64_t count_reference_flops(const py::object& ref, const py::list& inputs, bool cuda) {
  try {
    py::module_ flop_counter = py::module_::import("torch.utils.flop_counter");
    // torch wraps a dispatch mode's __torch_dispatch__ so that torch.compile never traces it, and
    // the wrapper imports torch._dynamo on its first call: 2.2 s of a CPU worker's first count on
    // the development machine (0.12 s without it), and on the H200 machine the likely cause of a
    // first job's load phase of 4-5 s in session 8 (about 0.1 s before the count existed). The
    // count runs in eager mode, where there is nothing to disable, so the wrapper's cache slot is
    // given the function itself and the import never happens. Where torch lays this out
    // otherwise the count is only slower, never different.
    try {
      py::object raw = flop_counter.attr("_FlopCounterMode").attr("__torch_dispatch__").attr("__wrapped__");
      py::setattr(raw, "__dynamo_disable", raw);
    } catch (py::error_already_set&) {
    }
    py::object counter = py::module_::import("kforge_flops").attr("flop_counter")();
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

// A training step's result, tensor by tensor, for a message.
std::string describe_roles(const std::vector<ComparedTensor>& roles) {
  std::string text;
  for (const auto& role : roles) text += (text.empty() ? "" : ", ") + role.name;
  return text;
}

std::string format_error_vs_fp64(const PrecisionCheck& pc) {
  char figures[128];
  std::snprintf(figures, sizeof figures, "error vs fp64 %.1e of the largest value (reference %.1e)", pc.candidate_error,
                pc.reference_error);
  return figures;
}

// One evaluation in phases, each with the state it leaves for the next (as nvbench's
// measure_cold runs check, initialise, warm-up, trials, summaries):
//   check        the job fits this worker;
//   load         problem, reference model, its FLOPs, and the candidate in a process of its own;
//   correctness  one trial per secret seed and one per extra size;
//   timing       reference and candidate in pairs (worker/paired_timing.hpp);
//   census       (CUDA) one more trial, recording which kernels the candidate launches;
//   summary      the verdict's message.
class Evaluation {
 public:
  Evaluation(const protocol::EvalJob& job, WorkerContext& context)
      : job_(job),
        context_(context),
        cuda_(job.device == DeviceKind::cuda),
        device_name_(cuda_ ? "cuda:0" : "cpu"),
        device_(cuda_ ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU)),
        dtype_(dtype_of(job.precision)),
        timing_cpus_(cuda_ ? timing_cpus() : std::nullopt) {
    res_.trials_total = static_cast<int>(job.trial_seeds.size());
  }

  protocol::JobResult run() {
    c10::AutoGradMode no_grad(false);  // as upstream: forward under torch.no_grad()
    PhaseTrace::current().reset();
    if (std::optional<Failure> f = failure_of([&] { phases(); })) {
      res_.verdict = f->verdict;
      res_.message = f->message;
      res_.rule = f->rule;
      res_.not_the_candidates = f->not_the_candidates;
      res_.another_ranks_failure = f->another_ranks;
    }
    if (watch_) watch_->look_at_folder_now();  // what the scratch folder holds at the end counts too
    if (watch_ && watch_->tripped() != ResourceWatch::Tripped::none) over_bounds();
    watch_.reset();
    {
      TracedPart part("candidate end");
      cand_.reset();  // the candidate's process group is killed here, whatever the verdict
    }
    twins_.end_unless_wanted_next(context_, job_);  // where the evaluation ended before its timing
    twins_.keep(context_);
    ranks_.reset();
    if (PhaseTrace::wanted())
      std::fprintf(stderr, "kforge worker: phase trace: %s: %s: load %.3f s, correctness %.3f s, timing %.3f s: %s\n",
                   job_.problem_path.c_str(), std::string(to_string(res_.verdict)).c_str(), res_.load_s, res_.correctness_s, res_.timing_s,
                   PhaseTrace::current().describe().c_str());
    // Only this process's own context matters now: the candidate's died with its process.
    if (cuda_ && res_.verdict != Verdict::correct && !cuda_context_alive()) {
      res_.worker_must_restart = true;
      res_.message += " (the reference process's CUDA context was lost; it was restarted)";
    }
    return res_;
  }

 private:
  void phases() {
    check();
    phase(&res_.load_s, [&] { load(); });
    // Twins kept for another job's problem hold their memory no longer (ReferenceTwins::start
    // retires them where it starts twins; this job times nothing, or not in twins).
    if (!context_.twins.empty() && twins_.empty()) {
      TracedPart part("kept twin end");
      retire_twins(context_, std::move(context_.twins));
      context_.twins.clear();
    }
    // The next candidate's process makes its CUDA context and stream hold while this one's
    // correctness trials run, is stopped where it is while anything is timed (SparesPaused), and
    // goes on after: the next job's load no longer waits for it (docs/benchmarks.md, session 16:
    // load 0.23 s with the boundary against 0.01 s without, when it was started after the timing).
    // (Not for a rank: a spare is forked before its job's private network exists.)
    if (!job_.rank) {
      TracedPart part("spare start");
      start_spare(context_);
    }
    phase(&res_.correctness_s, [&] { correctness(); });
    std::optional<SparesPaused> spares_paused;  // until the timing ends, however it ends
    if (!job_.rank) {
      TracedPart part("spare settle");
      spares_paused.emplace(context_);
    }
    phase(&res_.timing_s, [&] { agreed([&] { timing(); }); });
    spares_paused.reset();
    twins_.end_unless_wanted_next(context_, job_);
    phase(&res_.correctness_s, [&] {
      TracedPart part("census");
      census();
    });
    res_.verdict = Verdict::correct;
    res_.message = summary();
  }

  // What `fn` ended with, as a Failure (nothing when it returned): its own Failure, or what was
  // raised outside a guarded call (the problem's or kforge's) as runtime_error.
  template <class Fn>
  static std::optional<Failure> failure_of(Fn&& fn) {
    try {
      fn();
    } catch (const Failure& f) {
      return f;
    } catch (py::error_already_set& e) {
      return Failure{Verdict::runtime_error, describe(e).summary, ""};
    } catch (const std::exception& e) {
      return Failure{Verdict::runtime_error, std::string("worker: ") + e.what(), ""};
    }
    return std::nullopt;
  }

  // Runs one phase and adds its wall time to `seconds`, also when it ends the evaluation.
  template <class Fn>
  void phase(double* seconds, Fn&& fn) {
    auto t0 = Clock::now();
    try {
      fn();
    } catch (...) {
      *seconds += seconds_since(t0);
      throw;
    }
    *seconds += seconds_since(t0);
  }

  // The watch killed the candidate's process (so the evaluation ended as if it crashed): say why.
  void over_bounds() {
    res_.message = "the candidate's " + watch_->what_passed() + "; its process group was killed";
    res_.verdict = Verdict::runtime_error;
    res_.rule.clear();
  }

  void check() {
    if (cuda_ && !context_.cuda) throw Failure{Verdict::runtime_error, "this worker has no CUDA device", ""};
    if (!context_.zygote) throw Failure{Verdict::runtime_error, "this worker has no zygote to start candidate processes", ""};
    if (job_.rank && job_.candidate_format != CandidateFormat::kernelbench)
      throw Failure{Verdict::load_error, "multi-rank problems take KernelBench-format candidates (a ModelNew) so far", ""};
  }

  // A multi-rank job's phase: run on every rank, then the ranks agree whether any failed, so all
  // of them stop together (docs/notes/multi-rank-judge.md, "Lockstep"). A rank that failed ends
  // its candidate's process first: the other ranks' candidates, waiting in a collective for it,
  // fail at once instead of at their group's timeout. One rank: `fn` alone.
  template <class Fn>
  void agreed(Fn&& fn) {
    if (!ranks_) return fn();
    std::optional<Failure> mine = failure_of(fn);
    if (mine) cand_.reset();
    if (ranks_->any(mine.has_value()) && !mine)
      throw Failure{Verdict::runtime_error, "another rank failed", "", false, true};
    if (mine) {
      // Once: a phase's agreement can hold a batch's (the timing's, PairSetup::agree).
      const std::string rank = "rank " + std::to_string(ranks_->rank()) + ": ";
      if (!mine->another_ranks && !mine->message.starts_with(rank)) mine->message = rank + mine->message;
      throw *mine;
    }
  }

  void load() {
    // A rank joins its references' group first: the problem's Model may ask dist.get_rank().
    if (job_.rank) {
      if (job_.timing.cuda_graph)
        throw Failure{Verdict::runtime_error, "--cuda-graph does not time multi-rank problems yet", ""};
      ranks_ = std::make_unique<RankGroup>(*job_.rank, cuda_);
    }
    agreed([&] { load_both(); });
  }

  void load_both() {
    std::optional<TracedPart> part(std::in_place, "load reference");
    problem_ = guarded(Verdict::load_error, "problem " + job_.problem_path,
                       [&] { return import_file(job_.problem_path, kProblemModulePrefix); });
    for (const char* name : {"Model", "get_inputs", "get_init_inputs"})
      if (!py::hasattr(problem_, name)) throw Failure{Verdict::load_error, std::string("problem file defines no ") + name, ""};
    if (!cuda_) apply_cpu_sizes(problem_);
    extra_sizes_ = extra_sizes_of(problem_, cuda_);  // read now: a broken one fails before any trial
    py::list init_args = init_arguments(problem_, device_name_, device_, dtype_);
    ref_ = guarded(Verdict::load_error, "problem: Model(*get_init_inputs()) failed",
                   [&] { return build_model(problem_.attr("Model"), init_args, device_name_, dtype_); });
    plan_bytes_ = plan_workspace_bytes(cuda_);  // 0 on the CPU
    if (is_training_problem(problem_)) {
      if (ranks_) throw Failure{Verdict::load_error, "a multi-rank problem is not a training problem (mode = \"train\") yet", ""};
      load_training_step();
    }
    if (training_) roles_ = training_->roles();
    if (cuda_) {
      // The reference's first forward of the evaluation (a training problem's first whole step:
      // its forward alone ran in load_training_step, settled the same way), from the allocator
      // state the candidate's first one will see (worker/plan_choice.hpp), so both choose the
      // same library algorithms.
      part.emplace("load plan call");
      py::list inputs = inputs_at(derived_seed(0x3c6ef372fe94f82bULL, 5));
      settle_allocator_for_plans(plan_bytes_);
      guarded(Verdict::runtime_error, "the reference Model.forward raised", [&] {
        ref_(*py::tuple(inputs));
        synchronize_device(cuda_);
        return 0;
      });
    }
    part.emplace("load flops");
    if (cuda_ && !job_.trial_seeds.empty()) count_flops();
    // A native candidate's outputs are allocated by kforge with the reference's shapes.
    std::vector<at::Tensor> reference_outputs;
    if (job_.candidate_format != CandidateFormat::kernelbench) {
      uint64_t seed = job_.trial_seeds.empty() ? 1 : job_.trial_seeds.front();
      py::list probe = fresh_inputs(problem_, seed, device_name_, device_, dtype_, input_arguments());
      Outputs r = normalize_outputs(guarded(Verdict::runtime_error, "the reference Model.forward raised",
                                            [&] { return ref_(*py::tuple(clone_arguments(probe))); }));
      if (!r.error.empty()) throw Failure{Verdict::runtime_error, "the reference's " + r.error + " (a broken problem)", ""};
      reference_outputs = r.tensors;
    }
    // What runs beside the load's driver work (the twins' arenas, settled allocators and first
    // calls waited on the driver while other processes made their contexts: docs/benchmarks.md,
    // session 52): one count of this part for each spare still starting. bench/boundary_cost.sh
    // groups the twins' start by it.
    if (PhaseTrace::wanted())
      for (const auto& spare : context_.spares)
        if (!spare->start_over()) PhaseTrace::current().add("load beside a starting spare", 0);
    part.emplace("load take process");
    std::unique_ptr<CandidateProcess> process = ranks_ ? rank_process(context_) : take_candidate_process(context_);
    process->watch_runs_while_stopped();  // the candidate's: the twin runs no code that could resume it
    cand_ = std::make_unique<RemoteCandidate>(std::move(process), cuda_, context_.clock.get());
    ResourceBounds bounds;
    bounds.host_memory_bytes = job_.host_memory_bytes;
    bounds.whole_tree = true;  // the memory and CPU of the processes it starts are the candidate's too
    bounds.cpu_cores = job_.cpu_cores;
    bounds.folder_bytes = job_.scratch_bytes;
    bounds.folder = cand_->scratch();
    bounds.most_tasks = most_candidate_tasks();
    watch_.emplace(cand_->pid(), bounds);
    // The spares still starting (the last job's) run on through the load. With
    // KFORGE_WORKER_SPARES_AT_LOAD=pause they are stopped where they are until the candidate loads,
    // so that the calibration and the twins' first calls run beside no process making its CUDA
    // context (session 49's H100: the candidate's calibration 103 ms a job beside three starting
    // spares, 70 ms beside two). Not the default, and no cheaper on the H200: level 1 took 125.7 s
    // so paused (session 50: a job waited for its spares a median 145 ms) and 125.8 s with them
    // running on (session 51: 1.2 ms, but the calibration and the twins' start 49 and 72 ms
    // longer beside them). Two runs on two machines; not yet one A/B in one run.
    std::optional<SparesPaused> spares_paused;
    if (!job_.rank && environment_says("KFORGE_WORKER_SPARES_AT_LOAD", "pause"))
      spares_paused.emplace(context_, /*settle_if_asked=*/false);
    part.emplace("load calibrate");
    // The same inputs for the candidate's calibration and the twin's: made once, and let go before
    // the twin's first call, which chooses its plans from the free memory it sees.
    std::optional<py::list> calibration(calibration_inputs());
    calibrate(*cand_, *calibration);
    // The twin's first call chooses its library plans (worker/plan_choice.hpp): before any of the
    // candidate's code runs, or a candidate holding the GPU's memory by then would steer the
    // reference to plans with smaller workspaces, slower, for the whole timing.
    part.reset();
    if (reference_twin_wanted(job_, ranks_ != nullptr)) {
      try {
        start_twins(std::move(*calibration));
      } catch (const Failure& f) {
        // The problem's Model cannot run in a sandboxed process of its own (it reads a file
        // beside it, say): the reference is timed here, as without the twin, and the message says
        // so. Not where the GPU is another process's: that job ends as such.
        if (f.not_the_candidates) throw;
        twin_note_ = "the reference timed in the reference process (" + f.message + ")";
        std::fprintf(stderr, "kforge worker: %s\n", twin_note_.c_str());
      }
    }
    calibration.reset();
    spares_paused.reset();
    part.emplace("load candidate");
    cand_->load(job_, reference_outputs, training_ ? training_->request() : nlohmann::json(), rank_request());
  }

  // A training problem (mode = "train"): the reference becomes its training step, forward and
  // backward in one call (worker/training.hpp), and every call's inputs carry grad_outputs.
  void load_training_step() {
    if (job_.candidate_format != CandidateFormat::kernelbench)
      throw Failure{Verdict::load_error,
                    "training problems (mode = \"train\") take KernelBench-format candidates (a ModelNew); native candidates "
                    "are not supported for them yet",
                    ""};
    if (job_.timing.cuda_graph)
      throw Failure{Verdict::runtime_error,
                    "--cuda-graph does not time training problems (mode = \"train\") yet: a step's backward runs in "
                    "autograd's engine, which kforge does not capture",
                    ""};
    py::list probe = fresh_inputs(problem_, derived_seed(0x243f6a8885a308d3ULL, 13), device_name_, device_, dtype_);
    // The step's constructor runs the reference's first forward (to learn its outputs): from the
    // settled allocator state too, or that call chooses the process's library algorithms from
    // whatever the worker's earlier jobs left cached (worker/plan_choice.hpp).
    settle_allocator_for_plans(plan_bytes_);
    training_.emplace(problem_, ref_, probe);
    ref_ = training_->step();
  }

  // The inputs of one call from `seed`: the problem's, and a training step's grad_outputs after them.
  py::list inputs_at(uint64_t seed) {
    py::list inputs = fresh_inputs(problem_, seed, device_name_, device_, dtype_, input_arguments());
    return training_ ? training_->inputs_with_grad_outputs(inputs, seed, sizes_, device_name_) : inputs;
  }

  // The calibration's inputs (the candidate's, the spare's and the reference twin's alike).
  py::list calibration_inputs() { return inputs_at(derived_seed(0x51afd7ed558ccd1dULL, 3)); }

  // What an empty request to `process` costs, measured with inputs of the problem's size after
  // reference calls, as the timed calls will come: before the candidate is loaded into it, and
  // (recalibrated_overhead) in the spare process.
  void calibrate(RemoteCandidate& process, const py::list& inputs) {
    PinnedThread pinned(reference_cpu());
    // The reference timed as the timing will time it: flushed, and held until a forward that
    // waits on the GPU makes the watchdog let it go (then never again, as in time_pairs).
    Timer& reference_timer = timer();
    bool hold = reference_timer.can_hold();
    process.calibrate(inputs, [&] {
      return guarded(Verdict::runtime_error, "the reference Model.forward raised", [&] {
        py::tuple args(clone_arguments(inputs));
        py::object out;
        if (reference_timer.time([&] { out = ref_(*args); }, hold).watchdog) hold = false;
        int64_t bytes = 0;
        for (const at::Tensor& t : normalize_outputs(out).tensors) bytes += t.nbytes();
        calibration_output_bytes_ = bytes;
        return bytes;
      });
    }, {candidate_cpu(), job_.timing.cuda_graph, ranks_ != nullptr});
  }

  // The empty request's cost measured again after the timing, in the spare process: no candidate
  // code has run there, and the candidate's process is stopped, so the figure is kforge's own, as
  // the first one was, but taken under the conditions the timed calls met. A first calibration
  // that landed low put honest candidates past the bound's slack (docs/benchmarks.md, sessions 14
  // and 18). Nothing when there is no spare or it fails; the spare stays the next job's.
  std::optional<double> recalibrated_overhead() {
    TracedPart part("timing recalibrate");
    try {
      if (!oldest_ready_spare(context_)) return std::nullopt;
      // Out of the list while lent (a failure below ends it; the next job starts another).
      RemoteCandidate spare(std::move(context_.spares.front()), cuda_, nullptr);
      context_.spares.erase(context_.spares.begin());
      std::optional<double> ms;
      try {
        calibrate(spare, calibration_inputs());
        ms = spare.request_overhead_ms();
      } catch (const Failure& f) {
        std::fprintf(stderr, "kforge worker: recalibration in the spare process failed: %s\n", f.message.c_str());
      }
      context_.spares.insert(context_.spares.begin(), spare.release_process());
      return ms;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kforge worker: recalibration in the spare process failed: %s\n", e.what());
      return std::nullopt;
    }
  }

  // A seed of its own for one use of the job's first trial seed (`salt` names the use; `fallback`
  // without trial seeds).
  uint64_t derived_seed(uint64_t salt, uint64_t fallback) const {
    return seed_bits(job_.trial_seeds.empty() ? fallback : job_.trial_seeds.front() ^ salt);
  }

  // Counted once per problem text and precision in this worker: the count depends on shapes
  // only, and several candidates of one problem (samples, `kforge serve`) would repeat a
  // reference call each.
  void count_flops() {
    static std::map<std::string, int64_t> flops_by_problem;
    std::string key = std::string(to_string(job_.precision)) + '\n' + file_text(job_.problem_path);
    if (auto known = flops_by_problem.find(key); known != flops_by_problem.end()) {
      res_.flops = known->second;
      return;
    }
    res_.flops = count_reference_flops(ref_, inputs_at(job_.trial_seeds.front()), cuda_);
    flops_by_problem.emplace(std::move(key), res_.flops);  // 0 too: a failed count fails again
  }

  void correctness() {
    for (size_t t = 0; t < job_.trial_seeds.size(); ++t) {
      agreed([&] {
        run_trial("trial " + std::to_string(t + 1) + "/" + std::to_string(job_.trial_seeds.size()), job_.trial_seeds[t],
                  t == 0, false);
      });
      ++res_.trials_passed;
    }
    // Shape specialisation: one more trial at each other size the problem declares. (Native
    // candidates get outputs shaped once, at load, so they are judged at the benchmark size only.)
    if (job_.candidate_format == CandidateFormat::kernelbench) {
      uint64_t extra_seed = job_.trial_seeds.empty() ? 7 : job_.trial_seeds.front() ^ 0xc2b2ae3d27d4eb4fULL;
      for (const auto& sizes : extra_sizes_) {
        SizesApplied applied(problem_, sizes);
        sizes_ = applied.describe();
        agreed([&] { run_trial("at the extra size " + applied.describe(), seed_bits(extra_seed++), false, false); });
      }
      sizes_.clear();
    }
  }

  // The kernel census: which kernels the candidate launches, recorded (CUPTI) on one more trial
  // after the timing. CUPTI leaves a cost on every later launch in the process that used it, even
  // unsubscribed: recorded on the first trial, the candidate's launches were timed slower than the
  // reference's (on the H200 an identity candidate's ResNet18 at 0.77, a stacked LSTM at 0.62).
  void census() {
    if (!cuda_) return;
    const uint64_t seed = derived_seed(0x165667b19e3779f9ULL, 11);
    agreed([&] { run_trial("the kernel census call", seed, false, true); });
  }

  // One trial: fresh inputs from `seed`; the reference on a copy of its own, then the candidate in
  // its process on another; outputs compared, inputs checked for changes. The first trial also
  // records the bytes one call must move and in an fp32 evaluation measures both results against
  // an fp64 reference; `record`, which kernels the candidate launched.
  void run_trial(const std::string& trial, uint64_t seed, bool first, bool record) {
    std::optional<TracedPart> part(std::in_place, "trial inputs");
    py::list inputs = inputs_at(seed);
    py::list ref_in = clone_arguments(inputs);
    const uint64_t forward_seed = forward_seed_for(seed);
    part.emplace("trial reference");
    py::object ref_result = guarded(Verdict::runtime_error, "the reference Model.forward raised (" + trial + ")", [&] {
      seed_everything(forward_seed);
      py::object r = ref_(*py::tuple(ref_in));
      synchronize_device(cuda_);
      return r;
    });
    Outputs ref_out = normalize_outputs(ref_result);
    if (!ref_out.error.empty())
      throw Failure{Verdict::runtime_error, "the reference's " + ref_out.error + " (a broken problem)", ""};
    output_bytes_ = std::max(output_bytes_, bytes_of(ref_out.tensors));

    RemoteCandidate::CallOptions options;
    options.what = trial;
    options.output_bytes = bytes_of(ref_out.tensors);
    options.poison = true;
    options.record = record;
    options.forward_seed = forward_seed;
    if (first) options.settle_allocator = plan_bytes_;
    // The first call apart: a fresh process loads the kernels and libraries it uses then.
    part.emplace(first ? "trial candidate first" : "trial candidate");
    RemoteCall call = cand_->call(inputs, options);
    part.emplace("trial compare");
    if (record) kernels_note_ = call.kernels;

    auto cand_mutation = find_mutation(inputs, call.inputs_after);
    auto ref_mutation = find_mutation(inputs, ref_in);
    if (ref_mutation) reference_changes_inputs_ = true;
    if (cand_mutation && !(ref_mutation && ref_mutation->argument == cand_mutation->argument))
      throw Failure{Verdict::rejected,
                    trial + ": the candidate modified input " + std::to_string(cand_mutation->argument) + " in place (" +
                        std::to_string(cand_mutation->changed) + " elements changed); the reference does not",
                    std::string(rules::kInputMutation)};

    const auto& cand_out = call.outputs.tensors;
    if (training_ && cand_out.size() != ref_out.tensors.size())
      throw Failure{Verdict::incorrect,
                    trial + ": the candidate's training step returned " + std::to_string(cand_out.size()) +
                        " tensors (its forward's outputs, then the gradients), the reference's " +
                        std::to_string(ref_out.tensors.size()) + ": " + describe_roles(roles_),
                    ""};
    auto compare = [&] {
      return guarded(Verdict::runtime_error, "comparing outputs",
                     [&] { return compare_outputs(ref_out.tensors, cand_out, job_.atol, job_.rtol, roles_); });
    };
    Comparison cmp = compare();
    // Values off the fp32 reference may be closer to fp64 than the reference's own (its TF32
    // convolutions, a ReLU mask its rounding flipped): the fp64 check decides.
    std::optional<PrecisionCheck> exactness;
    if (!cmp.match && cmp.values_only && dtype_ == at::kFloat && !ranks_) {
      part.emplace("trial fp64");
      exactness = fp64_check(inputs, forward_seed, ref_out.tensors, cand_out);
      if (exactness->at_least_as_exact(cmp.failed) && hold_to_reference_by_norm(ref_out.tensors, cand_out, *exactness))
        cmp = compare();
    }
    res_.max_abs_error = std::max(res_.max_abs_error.value_or(0.0), cmp.max_abs_error);
    res_.max_rel_error = std::max(res_.max_rel_error.value_or(0.0), cmp.max_rel_error);
    if (!cmp.match) {
      const std::string figures = exactness ? describe_norm_errors(*exactness, cmp.failed) : "";
      throw Failure{Verdict::incorrect, trial + ": " + cmp.message + (figures.empty() ? "" : " (" + figures + ")"), ""};
    }
    // What one call reads and writes: the speed-of-light floor's bytes (at the benchmark size).
    const int64_t call_bytes = bytes_of(inputs) + bytes_of(ref_out.tensors);
    input_bytes_ = std::max(input_bytes_, bytes_of(inputs));
    if (first) res_.min_bytes = call_bytes;
    if (first && ranks_) fp64_note_ = "fp64 check skipped: a multi-rank problem's reference runs collectives";
    if (first && dtype_ == at::kFloat && !ranks_) {
      part.emplace("trial fp64");
      PrecisionCheck pc = exactness ? *exactness : fp64_check(inputs, forward_seed, ref_out.tensors, cand_out);
      // An error of this size is no rounding of any precision (bf16 keeps 8 bits): the values are
      // wrong, and a loose tolerance on small outputs let them pass the comparison.
      if (pc.wrong())
        throw Failure{Verdict::incorrect,
                      trial + ": " + format_error_vs_fp64(pc) +
                          ": the values are wrong by that much of the output's scale, beyond what any precision explains",
                      ""};
      if (pc.downcast) throw Failure{Verdict::rejected, trial + ": " + pc.message, std::string(rules::kPrecisionDowncast)};
      fp64_note_ = pc.ran ? format_error_vs_fp64(pc) : "fp64 check skipped: " + pc.skipped;
    }
  }

  // The reference in fp64 on this trial's inputs, both results measured against it.
  PrecisionCheck fp64_check(const py::list& inputs, uint64_t forward_seed, const std::vector<at::Tensor>& reference,
                            const std::vector<at::Tensor>& candidate) {
    PrecisionCheck pc;
    try {
      seed_everything(forward_seed);
      pc = check_against_fp64(ref_, inputs, reference, candidate, roles_);
      synchronize_device(cuda_);
    } catch (py::error_already_set& e) {
      // The reference cannot run in fp64 (upstream's level3/33_VanillaRNN keeps its hidden state
      // as a plain fp32 attribute and raises a dtype error): the check is skipped, not blamed on
      // the candidate.
      pc = PrecisionCheck{};
      pc.skipped = "the reference raised in fp64: " + describe(e).summary;
    }
    return pc;
  }

  // The candidate was found at least as exact as the reference (`pc`): its outputs are held to the
  // reference's by norm from now on (exactness_limits). False when an output is too far off for that.
  bool hold_to_reference_by_norm(const std::vector<at::Tensor>& reference, const std::vector<at::Tensor>& candidate,
                                 const PrecisionCheck& pc) {
    std::optional<std::vector<double>> limits = exactness_limits(reference, candidate);
    if (!limits) return false;
    if (roles_.empty()) roles_ = default_roles(reference.size());
    for (size_t i = 0; i < limits->size() && i < roles_.size(); ++i)
      roles_[i].norm_limit = std::max(roles_[i].norm_limit, (*limits)[i]);
    if (exactness_note_.empty())
      exactness_note_ = "more exact than the reference (" + describe_norm_errors(pc) + "): compared with it by norm";
    return true;
  }

  // Fresh inputs for every pair, each model on its own copy, interleaved (worker/paired_timing.hpp).
  void timing() {
    if (!job_.time_candidate) return;
    const uint64_t timing_seed = job_.trial_seeds.empty() ? 0 : job_.trial_seeds.back() ^ 0x9e3779b97f4a7c15ULL;
    auto inputs_for = [&](int index) {
      uint64_t seed = seed_bits(timing_seed + 0x2545f4914f6cdd1dULL * static_cast<uint64_t>(index + 1000));
      return inputs_at(seed);
    };
    // One timed call of a model in a process of kforge's: the candidate's, or the reference twin's.
    // With the twin, each process's first call of the timing starts from a settled allocator
    // (worker/plan_choice.hpp): the candidate's process comes from its correctness trials, the
    // extra sizes' last, and the twin's from its one first call, and their cached blocks would
    // otherwise differ where the timed calls' buffers are placed.
    std::set<const RemoteCandidate*> settled;
    auto timed_call = [&](RemoteCandidate& process, const TimedCall& call) {
      RemoteCandidate::CallOptions options;
      if (!twins_.empty() && settled.insert(&process).second) options.settle_allocator = plan_bytes_;
      options.checks = call.checks;
      options.forward_seed = call.forward_seed;
      options.what = "a timed call";
      options.output_bytes = output_bytes_;
      options.timed_hold = call.hold;
      options.graph = job_.timing.cuda_graph;
      // On the candidate's CPU for both: the two processes take turns there, one stopped while the other runs.
      options.cpu = candidate_cpu();
      options.input_layouts = input_layouts_from_environment();
      options.pair = call.pair;
      const RecheckSample& keep = *call.keep;
      options.keep = [&](const at::Tensor& output) { return keep.of(output); };
      RemoteCall answer = process.call(call.args, options);
      if (call.kept) *call.kept = {std::move(answer.outputs.tensors), std::move(answer.output_shapes)};
      return answer.sample;
    };
    CandidateCall cand = [&](const TimedCall& call) { return timed_call(*cand_, call); };
    PairSetup setup;
    if (!twins_.empty()) setup.reference_process = [&](const TimedCall& call) { return twins_.call(call, timed_call); };
    // The candidate's process takes its own copy of every argument (worker/candidate_host.cpp),
    // and so do the twins: then no call ever runs on the reference process's tensors.
    setup.share_inputs = !twins_.empty() || !reference_changes_inputs_;
    setup.roles = roles_;
    // What a pair holds while its batch waits: its inputs, once or twice, and the recheck's
    // samples of the outputs; and one output whole at a time, the call's own.
    setup.batch = timing_batch((setup.share_inputs ? 1 : 2) * input_bytes_, output_bytes_, cuda_, job_.timing.min_samples);
    if (ranks_) {
      // The ranks' smallest (free memory and shard sizes differ), and the same reference-input
      // sharing on all: both decide which calls run.
      setup.batch = static_cast<int>(-ranks_->max({-double(setup.batch)}).front());
      setup.share_inputs = !ranks_->any(!setup.share_inputs);
      setup.ranks = ranks_.get();
      setup.agree = [this](const std::function<void()>& batch) { agreed(batch); };
    }
    PinnedThread pinned(reference_cpu());
    TimingOutcome timed = time_pairs(ref_, cand, inputs_for, job_, timing_seed, device_, setup, timer());
    // Another process that started after the calibration shared the GPU with the timed calls.
    cand_->check_gpu_alone("after the timing, the candidate's process stopped and its work drained");
    // The candidate's reported times, or kforge's own clock around its calls where they fell short:
    // against the reference twin's deliveries where it was timed through one, else against the
    // request cost calibrated before the candidate loaded.
    if (!timed.twin_delivery_ms.empty()) {
      const stats::BoundChoice against_twin =
          stats::choose_bound_against_twin(timed.cand_host_ms, timed.cand_delivery_ms, timed.twin_delivery_ms);
      // Every evaluation's figures, charged or not: what honest candidates' excesses are is what
      // the slack could be cut to (bench/identity.sh gathers them from the worker log).
      std::fprintf(stderr,
                   "kforge worker: against the twin: median delivery excess %.4f ms, standard error %.4f ms, limit "
                   "%.4f ms, median host %.4f ms, slack %.4f ms, %zu pairs%s\n",
                   against_twin.excess_ms, against_twin.standard_error_ms, against_twin.limit_ms,
                   stats::median(timed.cand_host_ms), against_twin.slack_ms, timed.cand_host_ms.size(),
                   against_twin.use_bound ? ": charged" : against_twin.undecided() ? ": undecided at the end" : "");
      if (against_twin.use_bound) {
        for (double& t : timed.cand_ms) t += against_twin.excess_ms;
        for (double& t : timed.cand_host_ms) t += against_twin.excess_ms;
        char text[220];
        std::snprintf(text, sizeof text,
                      "timed by kforge's clock around each call: the candidate's requests took %.3f ms longer than the "
                      "reference twin's beyond the times its process reported, added to each call",
                      against_twin.excess_ms);
        boundary_note_ = text;
      }
    } else {
      bound_by_calibration(timed);
    }
    res_.ref_ms = std::move(timed.ref_ms);
    res_.cand_ms = std::move(timed.cand_ms);
    res_.ref_host_ms = std::move(timed.ref_host_ms);
    res_.cand_host_ms = std::move(timed.cand_host_ms);
    if (twins_.size() > 1) {
      res_.ref_process = std::move(timed.ref_process);
      // The bootstrap (as the result's interval makes it) only where the distance could be past the
      // fixed allowance at all: nearly every evaluation's twins are closer, whatever the noise.
      const auto apart = stats::reference_processes_apart(res_.ref_ms, res_.cand_ms, res_.ref_process);
      if (apart && *apart > stats::kSystematicAllowance)
        if (const auto estimate = stats::paired_speedup(res_.ref_ms, res_.cand_ms);
            estimate && stats::processes_drew_apart(apart, *estimate)) {
          twins_.not_kept();
          std::fprintf(stderr,
                       "kforge worker: the reference's twins came %.2f%% apart (interval half-width %.2f%%): not kept\n",
                       100 * *apart, 100 * estimate->rel_half_width());
        }
    }
    if (timed.max_mhz) clock_note_ = "SM clock " + std::to_string(timed.min_mhz) + "-" + std::to_string(timed.max_mhz) + " MHz";
    if (timed.throttled_pairs)
      clock_note_ += (clock_note_.empty() ? "" : ", ") + std::to_string(timed.throttled_pairs) +
                     " pairs dropped: the GPU throttled (thermal, hardware slowdown or power brake)";
    if (!timed.not_held.empty())
      clock_note_ += (clock_note_.empty() ? "" : "; ") + timed.not_held +
                     (timed.unheld_pairs ? " (" + std::to_string(timed.unheld_pairs) + " pairs dropped)" : "");
    if (std::string drained = cand_->describe_timing(); !drained.empty())
      boundary_note_ += (boundary_note_.empty() ? "" : "; ") + drained;
  }

  // Without the twin (the reference timed in the reference process, a rank of a multi-rank job):
  // the candidate's reports against kforge's clock less the request cost calibrated before it
  // loaded (stats::choose_bound), measured again in a fresh process where they fell short.
  void bound_by_calibration(TimingOutcome& timed) {
    stats::BoundChoice bound = stats::choose_bound(timed.cand_host_ms, timed.cand_bound_ms);
    if (bound.use_bound)
      if (auto fresh = recalibrated_overhead(); fresh && *fresh > cand_->request_overhead_ms()) {
        // The request cost more than first measured: each bound is that much lower.
        const double shift = *fresh - cand_->request_overhead_ms();
        for (double& b : timed.cand_bound_ms) b = std::max(b - shift, 1e-6);
        char text[160];
        std::snprintf(text, sizeof text, "request cost measured again in a fresh process: %.3f ms (%.3f ms before the candidate loaded)",
                      *fresh, cand_->request_overhead_ms());
        boundary_note_ = text;
        bound = stats::choose_bound(timed.cand_host_ms, timed.cand_bound_ms);
      }
    if (bound.use_bound) {
      timed.cand_ms = timed.cand_bound_ms;
      timed.cand_host_ms = timed.cand_bound_ms;
      char text[200];
      std::snprintf(text, sizeof text,
                    "timed by kforge's clock around each call: the candidate's process reported %.3f ms less per call "
                    "than a request takes",
                    bound.excess_ms);
      boundary_note_ = text + (boundary_note_.empty() ? "" : " (" + boundary_note_ + ")");
    }
  }

  // The reference twins (worker/reference_twin.hpp), or those kept from the previous job.
  void start_twins(py::list calibration) {
    const uint64_t seed = job_.trial_seeds.empty() ? 1 : job_.trial_seeds.front();
    const nlohmann::json training = training_ ? training_->request() : nlohmann::json();
    // Each twin's calibration inputs of its own, let go before its first call as the first's are.
    twins_.start(context_, reference_twin_key(job_, training), twin_problem_folder(job_.problem_path), [&](size_t i) {
      return TwinStart{job_,
                       training,
                       i == 0 ? std::move(calibration) : calibration_inputs(),
                       calibration_output_bytes_,
                       candidate_cpu(),
                       [this, seed] { return inputs_at(seed); },
                       forward_seed_for(seed),
                       plan_bytes_,
                       cand_->idle_probe_ms()};
    }, cuda_);
  }

  std::string summary() const {
    std::string text = std::to_string(res_.trials_passed) + "/" + std::to_string(res_.trials_total) + " trials passed; " +
                       std::to_string(res_.cand_ms.size()) + " timed pairs";
    for (const std::string* note :
         {&exactness_note_, &fp64_note_, &kernels_note_, &clock_note_, &boundary_note_, &twin_note_, &twins_.note()})
      if (!note->empty()) text += "; " + *note;
    if (job_.timing.cuda_graph) text += "; timed as CUDA graph replays";
    return text;
  }

  // get_inputs' arguments: a rank's (rank, world_size), or none.
  py::tuple input_arguments() const { return ranks_ ? ranks_->input_arguments() : py::tuple(); }

  // What a rank's candidate process needs to join the candidates' group (candidate_host.cpp).
  nlohmann::json rank_request() const {
    if (!ranks_) return nullptr;
    const auto& place = ranks_->place();
    return {{"rank", place.rank},
            {"world_size", place.world_size},
            {"store", place.candidates_store()},
            {"timeout_s", place.timeout_s}};
  }

  const protocol::EvalJob& job_;
  WorkerContext& context_;
  protocol::JobResult res_;
  std::unique_ptr<RankGroup> ranks_;  // a multi-rank job's groups (job_.rank)
  const bool cuda_;
  const std::string device_name_;
  const at::Device device_;
  const at::ScalarType dtype_;
  bool reference_changes_inputs_ = false;  // in some trial: then each side of a timed pair gets a copy of its own
  const std::optional<TimingCpus> timing_cpus_;  // where each side of a pair times (CUDA: worker/cpu_pin.hpp)
  std::optional<int> reference_cpu() const { return timing_cpus_ ? std::optional(timing_cpus_->reference) : std::nullopt; }
  std::optional<int> candidate_cpu() const { return timing_cpus_ ? std::optional(timing_cpus_->candidate) : std::nullopt; }
  // The reference's timer (flush, hold, clock): made once, for the calibration and the timing alike.
  Timer& timer() {
    if (!timer_)
      timer_ = cuda_ ? make_cuda_timer(context_.l2_bytes, context_.clock.get(), context_.hold.get(), context_.why_not_held)
                     : make_cpu_timer();
    return *timer_;
  }
  std::unique_ptr<Timer> timer_;
  py::module_ problem_;
  py::object ref_;                      // the reference's model, or its training step (training_)
  std::optional<TrainingStep> training_;  // a training problem's (mode = "train")
  // What each compared tensor is (a training step's roles; empty: plain outputs), with the norm
  // limits hold_to_reference_by_norm sets.
  std::vector<ComparedTensor> roles_;
  std::string sizes_;                   // the extra size applied now ("" at the benchmark's)
  std::unique_ptr<RemoteCandidate> cand_;
  // The reference twins (reference_twin_wanted), from the load on; kept for the next job, or their
  // processes end when the evaluation does (ended right after the timing, their contexts' teardown
  // ran beside the census).
  ReferenceTwins twins_;
  std::optional<ResourceWatch> watch_;  // the candidate's process: host memory and CPU share
  std::vector<py::dict> extra_sizes_;
  int64_t input_bytes_ = 0;   // one call's inputs (the largest of the trials)
  int64_t plan_bytes_ = 0;    // the free block both processes' first forwards see (worker/plan_choice.hpp)
  int64_t output_bytes_ = 0;  // the reference's outputs, the space the candidate's get
  int64_t calibration_output_bytes_ = 0;  // the reference's outputs at the benchmark size (calibrate)
  std::string fp64_note_;     // the precision check's figures
  std::string exactness_note_;  // a candidate more exact than the reference: the figures
  std::string kernels_note_;  // which kernels the candidate launched (CUDA)
  std::string clock_note_;    // the SM clock range while timing, dropped pairs
  std::string boundary_note_;  // what kforge's own clock changed in the candidate's reported times
  std::string twin_note_;      // why the reference was timed without its twin, where it could not start
};

}  // namespace

protocol::JobResult evaluate(const protocol::EvalJob& job, WorkerContext& context) {
  return Evaluation(job, context).run();
}

}  // namespace kforge::worker
