#include "worker/candidate_host.hpp"
#include "common/file_size_limit.hpp"
#include "worker/candidate_reads.hpp"
#include "worker/cpu_pin.hpp"
#include "core/rules.hpp"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>
#include <sys/prctl.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/pybind.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "metrics/kernel_census.hpp"
#include "protocol/frame.hpp"
#include "worker/copies_without_dispatch.hpp"
#include "worker/crash_report.hpp"
#include "worker/exchange_arena.hpp"
#include "worker/file_text.hpp"
#include "worker/failure.hpp"
#include "worker/integrity.hpp"
#include "worker/launch_recorder.hpp"
#include "worker/native_candidate.hpp"
#include "worker/plan_choice.hpp"
#include "worker/private_network.hpp"
#include "worker/problem_module.hpp"
#include "worker/python_bridge.hpp"
#include "worker/sandbox.hpp"
#include "worker/stream_hold.hpp"
#include "worker/tensors.hpp"
#include "worker/timer.hpp"

namespace kforge::worker {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// `inside_ms`: from reading the request to writing this frame, by this process's clock. Only the
// timing trace reads it (to split a request's cost into delivery and work inside the process):
// after a candidate loads, it is the candidate's to forge, so nothing is decided by it.
json sample_json(const Sample& s, Clock::time_point request_read) {
  return {{"event_ms", s.event_ms}, {"host_ms", s.host_ms}, {"queued_ms", s.queued_ms}, {"held", s.held},
          {"watchdog", s.watchdog}, {"inside_ms", std::chrono::duration<double, std::milli>(Clock::now() - request_read).count()}};
}

json failure_json(const Failure& f, bool context_lost) {
  return {{"type", "failed"},
          {"verdict", std::string(to_string(f.verdict))},
          {"message", f.message},
          {"rule", f.rule},
          {"context_lost", context_lost}};
}

// Whether a KernelBench candidate's text names torch.compile or what it runs on. Its first use
// imports torch._dynamo, which replaces torch.manual_seed (with a wrapper that keeps dynamo out of
// it), and its first compile nn.Module.__init__ and __setstate__ (its mutation tracking, with a
// new class attribute): torch's own patches, which
// the integrity watch took for the candidate's (an honest torch.compile candidate was rejected,
// patched-torch, until session 41). For such a candidate the import comes before the watch's
// snapshot; it costs 0.77 s on the development machine, so not for the others (one that reaches
// dynamo without naming it is still rejected, and says which function changed).
bool may_use_torch_compile(const std::string& text) {
  for (const char* word : {"compile(", "torch.compile", "_dynamo", "_inductor", "import compile"})
    if (text.find(word) != std::string::npos) return true;
  return false;
}

// A kernel launched by another thread after forward returned: work done behind the caller's
// back by a thread the candidate left running (a Python thread is caught by IntegrityWatch; this
// catches native ones, a load_inline extension's std::thread included).
void reject_late_launches(const RecordedForward& rec) {
  if (rec.late_from_other_threads.empty()) return;
  const auto& late = rec.late_from_other_threads.front();
  throw Failure{Verdict::rejected,
                "kernel " + demangled(late.kernel) + " was launched by another thread after forward returned (" +
                    std::to_string(rec.late_from_other_threads.size()) + " such launch(es), from " +
                    (late.object.empty() ? std::string("unknown code") : late.object) + ")",
                std::string(rules::kThreadInjection)};
}

// Work the forward left running on a stream the caller's stream does not wait for: its outputs
// are not ready on the caller's stream when forward returns (a race any real caller would hit,
// though kforge itself reads them after a full synchronize, so its values and times are honest).
void reject_unjoined_streams(const RecordedForward& rec) {
  if (rec.unjoined.empty()) return;
  const auto& first = rec.unjoined.front();
  throw Failure{Verdict::rejected,
                "kernel " + demangled(first.launch.kernel) + " (CUDA stream " + std::to_string(first.stream) +
                    ") is not ordered before the caller's stream when forward returns: no event wait or synchronisation joins its stream (" +
                    std::to_string(rec.unjoined.size()) +
                    " such kernel(s)); make the current stream wait for it (wait_stream, or an event) before returning",
                std::string(rules::kUnjoinedStream)};
}

// A kernel's name short enough for a message: templates' argument lists can run to pages.
std::string short_name(const std::string& name) {
  constexpr size_t kLimit = 120;
  return name.size() <= kLimit ? name : name.substr(0, kLimit) + "...";
}

// What the first trial's launches say under the fallback policy: under --fallback strict a
// forward without a kernel of its own is a PyTorch fallback. Otherwise, the census for the message.
std::string judge_census(const RecordedForward& rec, census::FallbackPolicy policy) {
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
    throw Failure{Verdict::rejected, *violation, std::string(rules::kPytorchFallback)};
  std::string text = census::describe(summary);
  // Where the next change pays most: the own kernel with the most GPU time, and its launch's shape
  // and occupancy (the agent's digest quotes this clause to the model).
  if (auto slowest = census::slowest_own(rec.during))
    text += fmt::format("; slowest own kernel {}: {:.3f} ms in {} launch(es), {}", short_name(demangled(slowest->kernel)),
                        slowest->gpu_ms, slowest->launches, census::describe(slowest->shape, rec.sm));
  if (!rec.order_unavailable.empty()) text += "; stream order not checked: " + rec.order_unavailable;
  return text;
}

// Where a call's time went inside this process, part by part, for the reference process's phase
// trace (worker/phase_trace.hpp) and nothing else: the candidate's to forge once it has loaded.
struct InsideParts {
  json parts = json::object();
  Clock::time_point last = Clock::now();
  void mark(const char* part) {
    const auto now = Clock::now();
    parts[part] = std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
  }
};

class CandidateHost {
 public:
  CandidateHost(int fd, bool cuda, std::vector<std::string> writable, std::vector<int> protected_pids,
                uint64_t private_apart_from)
      : fd_(fd),
        cuda_(cuda),
        writable_(std::move(writable)),
        protected_pids_(std::move(protected_pids)),
        private_apart_from_(private_apart_from) {}

  // Before the sandbox: the CUDA context, the stream hold, the timer's flush buffer and the
  // libraries' warm-up (warm_libraries), so the driver opens what it needs while it still may,
  // and none of it is a thread the candidate started.
  void prepare() {
    remember_plain_tensor_types();  // before any candidate code (worker/tensors.hpp)
    if (!cuda_) {
      timer_ = make_cpu_timer();
      return;
    }
    const auto t0 = Clock::now();
    prepare_parts_.last = t0;
    py::object props = py::module_::import("torch").attr("cuda").attr("get_device_properties")(0);
    prepare_parts_.mark("cuda_init");
    hold_ = StreamHold::create(std::chrono::milliseconds(500), &why_not_held_);
    timer_ = make_cuda_timer(props.attr("L2_cache_size").cast<int64_t>(), nullptr, hold_.get(), why_not_held_);
    prepare_parts_.mark("timer");
    // Not for a rank's process: it is forked for its job and waited for at once (never a spare).
    const char* warm = std::getenv("KFORGE_WORKER_SPARE_WARMUP");
    if (private_apart_from_ == 0 && !(warm && std::string_view(warm) == "0")) warm_libraries();
    prepare_ms_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }

  // cuBLAS's and cuDNN's handles made and their libraries opened by a small product and
  // convolution, so that the candidate's (and the twin's) first forward no longer pays for them:
  // 175 -> 51 ms, the median over level 1's identities on an H100, and the level 143.0 -> 136.6 s
  // (docs/benchmarks.md, session 37). Both processes of an evaluation come from the spares,
  // warmed alike. It makes each spare's start about a second longer (1.7 -> 2.8 s, the median with
  // the time it was stopped while anything was timed), which is why the worker keeps four
  // (worker_context.hpp): with two, in session 19, the warm-ups outlasted the correctness trials
  // and made the level slower. KFORGE_WORKER_SPARE_WARMUP=0 leaves it out.
  void warm_libraries() {
    const at::TensorOptions options = at::TensorOptions().device(at::kCUDA, 0).dtype(at::kFloat);
    at::Tensor a = at::ones({64, 64}, options);
    at::Tensor product = at::mm(a, a);
    synchronize_device(true);
    prepare_parts_.mark("cublas");
    at::Tensor image = at::ones({1, 8, 16, 16}, options), filter = at::ones({8, 8, 3, 3}, options);
    at::Tensor convolved = at::conv2d(image, filter);
    synchronize_device(true);
    prepare_parts_.mark("cudnn");
  }

  int serve() {
    // What the CUDA start cost (kforge's own figure: no candidate code has run yet), for the phase trace.
    json ready = {{"type", "ready"}};
    if (cuda_) {
      ready["prepare_ms"] = prepare_ms_;
      ready["prepare_parts"] = prepare_parts_.parts;
    }
    if (private_apart_from_ != 0) ready["network_namespace"] = network_namespace_id();
    if (!protocol::write_frame(fd_, ready)) return 1;
    for (;;) {
      auto frame = protocol::read_frame(fd_);
      request_read_ = Clock::now();
      if (frame.status != protocol::ReadStatus::ok) return 0;  // the reference process went away
      const json& request = frame.message;
      const std::string type = request.value("type", "");
      if (type == "shutdown") return 0;
      json reply;
      bool context_lost = false;
      try {
        if (type == "calibrate") reply = calibrate(request);
        else if (type == "arena") reply = open_arena(request);
        else if (type == "load") reply = load(request);
        else if (type == "call") reply = call(request);
        else if (type == "unload") reply = unload();
        else throw Failure{Verdict::runtime_error, "unknown request " + type, ""};
      } catch (const Failure& f) {
        context_lost = cuda_ && !cuda_context_alive();
        reply = failure_json(f, context_lost);
      } catch (py::error_already_set& e) {
        context_lost = cuda_ && !cuda_context_alive();
        reply = failure_json({Verdict::runtime_error, describe(e).summary, ""}, context_lost);
      } catch (const std::exception& e) {
        context_lost = cuda_ && !cuda_context_alive();
        reply = failure_json({Verdict::runtime_error, std::string("candidate process: ") + e.what(), ""}, context_lost);
      }
      if (!protocol::write_frame(fd_, reply)) return 1;
      if (context_lost) return 3;  // nothing more can run in this context
    }
  }

 private:
  // An empty call timed the way a candidate's is: what the request, the flush, the hold and
  // the synchronisation cost by themselves, measured while this process is still kforge's alone.
  json calibrate(const json& request) {
    Arguments args = prepare_call(request);
    // A graph's timed call first copies its inputs into the graph's static buffers (GraphedForward.load),
    // outside its timed window but inside the request: a copy of each here costs the same.
    std::vector<at::Tensor> static_copies;
    if (request.value("graph", false))
      for (auto a : args.args)
        if (THPVariable_Check(a.ptr())) static_copies.push_back(THPVariable_Unpack(a.ptr()).clone());
    CollectorPaused paused;
    PinnedThread pinned(cpu_of(request));
    Sample s = timer_->time([] {}, timer_->can_hold());
    // A timed call then puts its outputs into the arena before its frame (a graph's first copies
    // them out of its static buffers, the snapshot): copies of as many bytes here.
    const int64_t output_bytes = request.value("output_bytes", int64_t{0});
    if (output_bytes > 0) {
      if (!calibration_outputs_.defined() || calibration_outputs_.numel() != output_bytes)
        calibration_outputs_ = at::empty({output_bytes}, at::TensorOptions().dtype(at::kByte).device(cuda_ ? at::kCUDA : at::kCPU));
      if (request.value("graph", false)) at::Tensor snapshot = calibration_outputs_.clone();
      // Into the arena's output space, as place_outputs copies a call's: writes into memory the
      // reference process shares cost more than into this process's own (session 30: with a
      // copy between buffers of its own here, honest level-1 identities were bounded 0.37-0.57
      // ms a call above their reports on the legacy IPC arena).
      const json out = request.value("out", json::object());
      const TensorSlot slot{out.value("offset", int64_t{0}), at::kByte, {output_bytes}};
      if (arena_ && arena_->contains(slot, nullptr)) copy_without_dispatch(arena_->view(slot), calibration_outputs_);
      synchronize_device(cuda_);
    }
    if (!protocol::write_frame(fd_, {{"type", "timed"}, {"sample", sample_json(s, request_read_)}}))
      throw Failure{Verdict::runtime_error, "the reference process went away", ""};
    return {{"type", "done"}};
  }

  json open_arena(const json& request) {
    const bool sends_fd = ExchangeArena::sends_fd(request.at("arena"), cuda_);
    int fd = sends_fd ? receive_fd(fd_) : -1;
    if (sends_fd && fd < 0) throw Failure{Verdict::runtime_error, "no exchange arena descriptor arrived", ""};
    graphed_ = py::none();  // its static buffers may be views of the old arena
    arena_ = ExchangeArena::open(request.at("arena"), fd, cuda_);
    return {{"type", "ok"}};
  }

  json load(const json& request) {
    // A process that has loaded a candidate loads nothing more; one that has timed only references
    // (a reference twin) may time another problem's after unload() (worker/reference_twin.hpp).
    const bool reference = request.value("reference", false);
    if (sandboxed_ && !(reference && reference_only_))
      throw Failure{Verdict::runtime_error, "a candidate process loads one candidate", ""};
    calibration_outputs_ = at::Tensor();  // the calibration is over: the memory is the candidate's
    if (!sandboxed_) {
      reference_only_ = reference;
      enter_sandbox_for(request);
    }
    const std::string device_name = cuda_ ? "cuda:0" : "cpu";
    const at::Device device = cuda_ ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU);
    // The reference process's words, sent from its enums: anything else is a broken request.
    const auto precision = precision_from_string(request.value("precision", std::string()));
    const auto format = candidate_format_from_string(request.value("format", std::string()));
    if (!precision || !format) throw Failure{Verdict::runtime_error, "a load request without a known precision and format", ""};
    const at::ScalarType dtype = dtype_of(*precision);
    format_ = *format;
    fallback_ = census::policy_from_string(request.value("fallback", "mixed")).value_or(census::FallbackPolicy::mixed);
    py::module_ problem = guarded(Verdict::load_error, "problem " + request.at("problem").get<std::string>(),
                                  [&] { return import_file(request.at("problem").get<std::string>(), kProblemModulePrefix); });
    if (!cuda_) apply_cpu_sizes(problem);
    py::list init_args = init_arguments(problem, device_name, device, dtype);
    if (request.contains("rank")) join_candidates_group(request.at("rank"));
    if (!request.value("reference", false) && format_ == CandidateFormat::kernelbench &&
        may_use_torch_compile(file_text(request.at("candidate").get<std::string>())))
      guarded(Verdict::runtime_error, "importing torch._dynamo for a candidate that may use torch.compile", [] {
        py::module_::import("torch._dynamo");
        // Its first compile patches nn.Module's two (eval_frame.py); done here, it is in the snapshot.
        py::module_ guard = py::module_::import("torch._dynamo.mutation_guard");
        if (py::hasattr(guard, "install_generation_tagging_init")) guard.attr("install_generation_tagging_init")();
        // Inductor's autotuning on a GPU shows a tqdm progress bar, whose first one starts a
        // monitor thread ("tqdm_monitor") that lives on after forward: thread-injection for an
        // honest candidate (the GPU trust corpus, session 42). tqdm's own switch turns it off.
        try {
          py::module_::import("tqdm").attr("tqdm").attr("monitor_interval") = 0;
        } catch (const py::error_already_set&) {  // no tqdm: no monitor either
        }
      });
    watch_.emplace();  // the snapshot, before any of the candidate's code runs
    if (request.value("reference", false)) {
      // The reference twin (worker/reference_twin.hpp): the problem's own Model, built as a
      // ModelNew is, and no candidate imported.
      model_ = guarded(Verdict::load_error, "Model(*get_init_inputs()) failed",
                       [&] { return build_model(problem.attr("Model"), init_args, device_name, dtype); });
      model_name_ = "Model";
    } else if (format_ == CandidateFormat::kernelbench) {
      py::module_ module = guarded(Verdict::load_error, "importing the candidate failed", [&] {
        return import_file(request.at("candidate").get<std::string>(), "kforge_candidate_");
      });
      if (!py::hasattr(module, "ModelNew")) throw Failure{Verdict::load_error, "the candidate defines no ModelNew class", ""};
      model_ = guarded(Verdict::load_error, "ModelNew(*get_init_inputs()) failed",
                       [&] { return build_model(module.attr("ModelNew"), init_args, device_name, dtype); });
    } else {
      model_ = load_native(request, problem, init_args, device_name, dtype);
      native_ = &model_.cast<NativeCandidate&>();
    }
    if (request.contains("training")) {
      model_ = training_step(request.at("training"));
      native_ = nullptr;  // the step is called now, not the native candidate itself
    }
    synchronize_device(cuda_);
    enforce("after loading the candidate");
    return {{"type", "loaded"}};
  }

  // The reference twin's problem let go (its model, its arena's mapping, the memory its allocator
  // cached), so that the process can time another problem's reference, as a spare would but with
  // its CUDA context already made (worker/reference_twin.hpp). Never a candidate's process: it ran
  // candidate code. The collection looks only at what the problem made: torch's own objects were
  // frozen out of its reach in the zygote (python/kforge_zygote.py).
  json unload() {
    if (!sandboxed_ || !reference_only_) throw Failure{Verdict::runtime_error, "only a reference's timing process unloads", ""};
    model_ = py::none();
    graphed_ = py::none();
    native_ = nullptr;
    calibration_outputs_ = at::Tensor();
    arena_.reset();
    watch_.reset();
    // The problem's module too (import_file registers each under a name of its own), with what its
    // globals hold.
    py::dict modules = py::module_::import("sys").attr("modules");
    for (const auto& name : py::list(modules.attr("keys")()))
      if (py::str(name).cast<std::string>().starts_with(kProblemModulePrefix)) modules.attr("pop")(name, py::none());
    py::module_ gc = py::module_::import("gc");
    gc.attr("collect")();
    if (cuda_) {
      synchronize_device(true);
      py::module_::import("torch").attr("cuda").attr("empty_cache")();
    }
    return {{"type", "ok"}};
  }

  // A multi-rank job's candidate (docs/notes/multi-rank-judge.md): the candidates' group, joined
  // in the job's private network before the candidate is imported, so its ModelNew is built inside
  // an initialised group as the reference's Model was. Its threads (gloo's) are kforge's: the
  // integrity snapshot comes after.
  void join_candidates_group(const json& rank) {
    guarded(Verdict::runtime_error, "joining the candidates' group", [&] {
      py::module_::import("kforge_rank_control")
          .attr("join_candidates")(rank.at("store").get<std::string>(), rank.at("rank").get<int>(),
                                   rank.at("world_size").get<int>(), cuda_, rank.value("timeout_s", 60.0));
      return 0;
    });
  }

  // A training problem's candidate is called as a training step (python/kforge_train.py): its
  // forward and backward, the gradients returned after the outputs. Its trainable parameters must
  // match the reference's in count and shape, since their gradients are compared in order.
  py::object training_step(const json& training) {
    return guarded(Verdict::load_error, "ModelNew as a training step", [&] {
      py::object step = py::module_::import("kforge_train")
                            .attr("TrainStep")(model_, training.at("grad_inputs").get<std::vector<int>>(),
                                               training.at("grad_outputs").get<int>());
      py::list expected;
      for (const auto& p : training.at("parameters"))
        expected.append(py::make_tuple(p.at(0).get<std::string>(), p.at(1).get<std::vector<int64_t>>()));
      step.attr("check_parameters")(expected);
      return step;
    });
  }

  // A native candidate gets the reference model's parameters (the same seeded construction, made
  // here) and outputs shaped as the reference process says the reference's are.
  py::object load_native(const json& request, const py::module_& problem, const py::list& init_args,
                         const std::string& device_name, at::ScalarType dtype) {
    std::vector<double> init_scalars;
    for (auto arg : init_args)
      if (py::isinstance<py::bool_>(arg) || py::isinstance<py::int_>(arg) || py::isinstance<py::float_>(arg))
        init_scalars.push_back(arg.cast<double>());
    py::object ref = guarded(Verdict::load_error, "problem: Model(*get_init_inputs()) failed",
                             [&] { return build_model(problem.attr("Model"), init_args, device_name, dtype); });
    std::vector<std::pair<std::string, at::Tensor>> params;
    py::dict state = ref.attr("state_dict")();
    for (auto [name, value] : state)
      if (THPVariable_Check(value.ptr()))
        params.emplace_back(name.cast<std::string>(), THPVariable_Unpack(value.ptr()).detach().clone());
    std::vector<OutputSpec> specs;
    for (const auto& out : request.at("outputs")) {
      std::string why;
      auto slot = TensorSlot::from_json(out, &why);
      if (!slot) throw Failure{Verdict::runtime_error, "reference output description: " + why, ""};
      specs.push_back({slot->shape, slot->dtype});
    }
    return guarded(Verdict::load_error, "loading the native candidate failed", [&] {
      auto native = std::make_unique<NativeCandidate>(request.at("library").get<std::string>(), std::move(init_scalars),
                                                      std::move(params), std::move(specs), cuda_);
      return py::cast(native.release(), py::return_value_policy::take_ownership);
    });
  }

  // The sandbox, entered once the files this candidate needs are known and before any of its
  // code runs: reads confined to the system's folders, the interpreter and its packages, kforge's
  // own folders, the caches, the scratch folder, and this job's problem, candidate and library.
  void enter_sandbox_for(const json& request) {
    std::vector<std::string> readable = candidate_readable_folders();
    // A reference twin's: the folder of problems it may time after this one (the reference
    // process names it; never a candidate's, whose reads stay its own problem's file).
    for (const char* key : {"problem", "candidate", "library", "reference_folder"})
      if (request.contains(key) && request[key].is_string() && !request[key].get<std::string>().empty() &&
          (std::string_view(key) != "reference_folder" || request.value("reference", false)))
        readable.push_back(request[key].get<std::string>());
    // No file larger than its whole scratch folder may hold (the reference process watches the
    // folder's total, pool/disk_usage.hpp).
    limit_file_size(request.value("scratch_bytes", int64_t{0}));
    SandboxStatus sandbox = enter_candidate_sandbox(writable_, readable, protected_pids_, private_apart_from_);
    std::fprintf(stderr, "kforge candidate %d: sandbox: %s\n", static_cast<int>(::getpid()), sandbox.describe.c_str());
    sandboxed_ = true;
    // Without its seccomp filter a candidate could signal kforge's processes and trace them: no
    // candidate runs so. (Without Landlock it still runs, less confined, as the line above says.)
    // A rank's filter allows sockets, in its job's private network only.
    if (!sandbox.network_denied && !sandbox.network_private)
      throw Failure{Verdict::runtime_error, "the candidate's sandbox could not be entered: " + sandbox.describe, ""};
  }

  void enforce(const std::string& when) {
    if (!watch_) return;
    if (auto v = watch_->check()) throw Failure{Verdict::rejected, when + ": " + v->message, v->rule};
  }

  // A call's arguments: on the CPU's arena and a legacy IPC one, each tensor copied out of the
  // arena into this process's own memory before the call; `back` copies them into the arena
  // again, so the reference process sees what the call changed in place. Computed on the CUDA IPC
  // mapping itself, kernels ran slower: at 1 GiB a streaming relu as fast, but on the H200
  // level-1 identities fell to a median of 0.959 and level1/16's matrix-vector product to 0.20
  // (docs/benchmarks.md, session 19; the mapping's pages, presumably). The copy costs a level-1
  // evaluation 44 ms. On a VMM arena (the default, worker/exchange_arena.hpp) the call gets views
  // of it, no copies: what it changes in place is in the arena already.
  struct Arguments {
    py::tuple args;
    std::vector<std::pair<at::Tensor, at::Tensor>> copies;  // (arena view, own copy)
    void back() const {
      for (const auto& [view, own] : copies) copy_without_dispatch(view, own);
    }
  };

  Arguments arguments(const json& args) {
    Arguments out;
    py::list list;
    for (const auto& a : args) {
      if (a.contains("tensor")) {
        std::string why;
        auto slot = TensorSlot::from_json(a["tensor"], &why);
        if (!slot || !arena_) throw Failure{Verdict::runtime_error, "a malformed argument: " + why, ""};
        at::Tensor view = arena_->view(*slot);
        if (arena_->in_place()) {
          list.append(py::cast(view));
          continue;
        }
        at::Tensor own = clone_without_dispatch(view);
        out.copies.emplace_back(view, own);
        list.append(py::cast(own));
      } else {
        list.append(py::cast(a.at("value")));  // int, float, bool or None, as the problem made it
      }
    }
    synchronize_device(cuda_);
    out.args = py::tuple(list);
    return out;
  }

  // What every call does before its forward, the calibration's empty one included, so the
  // calibrated cost of a request has all of it: the arguments copied out of the arena, and the
  // same generator state the reference's forward on these inputs had (dropout, randn).
  Arguments prepare_call(const json& request) {
    Arguments out = arguments(request.value("args", json::array()));
    if (request.contains("seed") && request["seed"].is_number_unsigned()) seed_everything(request["seed"].get<uint64_t>());
    return out;
  }

  json call(const json& request) {
    c10::AutoGradMode no_grad(false);  // as upstream: forward under torch.no_grad()
    if (model_.is_none()) throw Failure{Verdict::runtime_error, "no candidate is loaded", ""};
    const std::string what = request.value("what", std::string("a call"));
    InsideParts inside;
    Arguments arguments_given = prepare_call(request);
    const py::tuple& args = arguments_given.args;
    inside.mark("arguments");
    // The first forward chooses library algorithms from the allocator's state as the reference's did.
    if (cuda_ && request.contains("settle") && request["settle"].is_number_integer())
      settle_allocator_for_plans(request["settle"].get<int64_t>());
    inside.mark("settle");
    // Known from the load, not asked of the object: isinstance can run its class's own __class__.
    if (native_) native_->set_poison_outputs(request.value("poison", false));
    if (cuda_ && request.value("poison", false)) poison_free_cuda_memory();
    std::optional<LaunchRecorder> recorder;
    if (cuda_ && request.value("record", false)) recorder.emplace().start();
    json reply = {{"type", "done"}};
    py::object result;
    const json timing = request.value("time", json());
    const int64_t out_offset = request.at("out").at("offset").get<int64_t>();
    const int64_t out_capacity = request.at("out").at("capacity").get<int64_t>();
    guarded(Verdict::runtime_error, model_name_ + ".forward raised (" + what + ")", [&] {
      if (timing.is_object()) {
        PinnedThread pinned(cpu_of(timing));
        CollectorPaused paused;  // until the frame is out, as in the calibration's empty call
        const bool graph = timing.value("graph", false);
        Sample s = timed_call(args, timing.value("hold", false), graph, &result);
        // The outputs go into the arena before the frame, finished: the reference process's
        // clock around the request stops at the frame, and it stops this process there and reads
        // them, so nothing run after it (the checks call Python that candidate code can replace;
        // a thread can wake) can still make them. A graph's output snapshot comes first:
        // kforge_graphs is in this process, where candidate code can move its work from the replay
        // into the snapshot. The calibration copies as many bytes to match.
        json timed = {{"type", "timed"}};
        timed["outputs"] = place_outputs(result, out_offset, out_capacity, &timed);
        timed["sample"] = sample_json(s, request_read_);
        if (!protocol::write_frame(fd_, timed)) throw Failure{Verdict::runtime_error, "the reference process went away", ""};
      } else {
        result = model_(*args);
        if (recorder) recorder->forward_returned();
        synchronize_device(cuda_);
      }
      return 0;
    });
    inside.mark("forward");
    if (!settled_ && format_ != CandidateFormat::kernelbench) {
      // Native threads are watched for native candidates only, once torch's lazily started pools
      // exist: a Python candidate's own threads each get an OpenMP team of their own that
      // outlives them, and its threads are watched through Python's threading module.
      watch_->settle_native_threads();
      settled_ = true;
    } else if (recorder && settled_) {
      // CUPTI starts threads of its own while it records, which would be taken for the
      // candidate's. The recorded call (the census) comes after the timing, where a thread of the
      // candidate's started now can change no timed figure; its outputs are still compared.
      watch_->settle_native_threads();
    }
    // A timed call's checks only where the reference process asks (a batch's last call): its
    // outputs were read at its frame, so they guard no figure of its own.
    if (!timing.is_object() || timing.value("checks", true)) enforce(what);
    inside.mark("checks");
    // What the call changed in its inputs, for the reference process's input-mutation check. A
    // timed call's inputs are not checked (each pair has fresh ones), and copying them back cost
    // a full copy of the inputs per timed call (issue 18's phase trace). Its outputs went with
    // the timed frame.
    if (!timing.is_object()) {
      arguments_given.back();
      reply["outputs"] = place_outputs(result, out_offset, out_capacity, &reply);
    }
    inside.mark("outputs");
    if (recorder) {
      // Another thread's launch is late however long after forward returned it comes; give one
      // that waits a little the time an honest reference call would have taken.
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      RecordedForward recorded = recorder->stop();
      reject_late_launches(recorded);
      reject_unjoined_streams(recorded);
      reply["kernels"] = judge_census(recorded, fallback_);
    }
    reply["inside"] = inside.parts;
    return reply;
  }

  // The CPU the reference process has this process time on (worker/cpu_pin.hpp).
  static std::optional<int> cpu_of(const json& j) {
    if (!j.contains("cpu") || !j["cpu"].is_number_integer()) return std::nullopt;
    return j["cpu"].get<int>();
  }

  Sample timed_call(const py::tuple& args, bool hold, bool graph, py::object* result) {
    if (!graph) return timer_->time([&] { *result = model_(*args); }, hold);
    if (graphed_.is_none())
      graphed_ = guarded(Verdict::runtime_error, "--cuda-graph: ModelNew.forward could not be captured in a CUDA graph",
                         [&] { return py::module_::import("kforge_graphs").attr("GraphedForward")(model_, args); });
    graphed_.attr("load")(*args);
    Sample s = timer_->time([&] { graphed_.attr("replay")(); }, hold);
    *result = graphed_.attr("snapshot")();
    return s;
  }

  // The outputs copied into the arena from `offset`, within `capacity` bytes. An output that is
  // not a plain tensor, or does not fit (it cannot match the reference's then), is described
  // instead, and the reference process judges the description.
  json place_outputs(const py::object& result, int64_t offset, int64_t capacity, json* reply) {
    Outputs outs = normalize_outputs(result);
    if (!outs.error.empty()) {
      (*reply)["output_error"] = {{"message", outs.error}, {"subclass", outs.subclass}};
      return json::array();
    }
    json placed = json::array();
    int64_t cursor = offset;
    for (const at::Tensor& t : outs.tensors) {
      TensorSlot slot{cursor, t.scalar_type(), t.sizes().vec()};
      json j = slot.to_json();
      j["device"] = t.device().is_cuda() ? "cuda" : "cpu";
      if (cursor + slot.nbytes() <= offset + capacity && arena_ && arena_->contains(slot, nullptr)) {
        // Not t's own copy_: dispatched, it could run the candidate's code (copies_without_dispatch.hpp).
        guarded(Verdict::runtime_error, "output " + std::to_string(placed.size()), [&] {
          copy_without_dispatch(arena_->view(slot), t);
          return 0;
        });
        cursor += aligned(slot.nbytes());
      } else {
        j["fits"] = false;
      }
      placed.push_back(j);
    }
    synchronize_device(cuda_);
    return placed;
  }

  int fd_;
  Clock::time_point request_read_;  // when the request being served was read (sample_json)
  at::Tensor calibration_outputs_;   // stands for a call's outputs in the calibration
  double prepare_ms_ = 0;            // [ms] prepare()'s time on CUDA, sent with "ready"
  InsideParts prepare_parts_;        // its parts: the context, the timer, the libraries' warm-up
  bool cuda_;
  std::vector<std::string> writable_;
  std::vector<int> protected_pids_;
  uint64_t private_apart_from_ = 0;  // a rank's: the zygote's network namespace (serve_candidate)
  bool sandboxed_ = false;
  bool reference_only_ = false;  // every load so far a reference twin's (unload() allowed)
  std::shared_ptr<StreamHold> hold_;
  std::string why_not_held_;
  std::unique_ptr<Timer> timer_;
  std::unique_ptr<ExchangeArena> arena_;
  std::optional<IntegrityWatch> watch_;
  CandidateFormat format_ = CandidateFormat::kernelbench;
  census::FallbackPolicy fallback_ = census::FallbackPolicy::mixed;
  py::object model_ = py::none();
  NativeCandidate* native_ = nullptr;  // model_ itself, where the candidate is native (kept alive by it)
  std::string model_name_ = "ModelNew";  // for messages: the reference twin's is the problem's Model
  py::object graphed_ = py::none();
  bool settled_ = false;
};

}  // namespace

// The socket to the reference process, for the builds the candidate's load_inline asks for.
static int reference_socket = -1;

bool asks_reference_for_builds() { return reference_socket >= 0; }

std::string build_through_reference(const std::string& spec) {
  if (reference_socket < 0) throw std::runtime_error("this process does not serve a reference process");
  // Asked from inside a request this process is answering: the reference process reads this frame
  // where it waits for the answer, and writes the build's result before anything else.
  if (!protocol::write_frame(reference_socket, {{"type", "build"}, {"spec", json::parse(spec)}}))
    throw std::runtime_error("the reference process went away");
  auto frame = protocol::read_frame(reference_socket);
  if (frame.status != protocol::ReadStatus::ok || !frame.message.is_object() || frame.message.value("type", "") != "built")
    throw std::runtime_error("the reference process did not answer the build");
  return frame.message.value("result", json::object()).dump();
}

int serve_candidate(int socket_fd, const std::vector<int>& protected_pids, uint64_t private_apart_from) {
  reference_socket = socket_fd;
  // Dies with the zygote, and through it with the reference process and kforge.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  install_native_crash_report();
  // A scratch folder of its own inside the worker's (the reference process removes it): its
  // working directory and TMPDIR, where it may write (with a multi-rank job's candidates' folder).
  std::vector<std::string> writable = candidate_writable_folders();
  if (!writable.empty() && std::getenv("KFORGE_WORKER_SCRATCH")) {
    std::string scratch = candidate_scratch(writable.front(), ::getpid());
    writable.front() = scratch;
    if (::mkdir(scratch.c_str(), 0700) != 0 || ::chdir(scratch.c_str()) != 0) {
      std::perror("kforge candidate: its scratch folder");
      return 1;
    }
    // Its prints and its crash report go to a log of its own, which the reference process
    // quotes when it dies and copies, bounded, into the worker's log.
    int log = ::open((scratch + "/" + kCandidateLog).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (log >= 0) {
      ::dup2(log, 1);
      ::dup2(log, 2);
      ::close(log);
    }
    // Through os.environ, which also sets the process's environment (Python's view of it was
    // taken when the zygote started), and tempfile made to look again.
    py::object environ = py::module_::import("os").attr("environ");
    environ["TMPDIR"] = scratch;
    environ["TORCHINDUCTOR_CACHE_DIR"] = scratch + "/inductor";
    // CUDA's JIT cache and Triton's, empty and its own: read before CUDA starts below. A binary a
    // candidate left in a shared one would be loaded by a later process as the compiler's output
    // for its source (a Triton kernel of a baseline's torch.compile, another candidate's).
    environ["CUDA_CACHE_PATH"] = scratch + "/nv-cache";
    environ["TRITON_CACHE_DIR"] = scratch + "/triton-cache";
    py::module_::import("tempfile").attr("tempdir") = py::none();
  }
  const bool cuda = py::module_::import("torch").attr("cuda").attr("is_available")().cast<bool>();
  CandidateHost host(socket_fd, cuda, std::move(writable), protected_pids, private_apart_from);
  try {
    host.prepare();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kforge candidate: cannot prepare: %s\n", e.what());
    return 1;
  }
  return host.serve();
}

}  // namespace kforge::worker
