#pragma once
// The candidate as the reference process sees it: a model in another process (worker/
// candidate_host.hpp), called through the exchange arena (worker/exchange_arena.hpp). Every
// call copies its inputs in while the candidate's process is stopped, resumes it for the call,
// stops it again (a timed call: at its timed frame, where kforge's clock stops, and again after
// its checks), copies the outputs out into the reference process's own memory, and checks
// what came back: the output descriptions against the arena's bounds, the inputs for changes,
// and, when timed, the candidate's reported times against the reference process's own clock
// and the GPU for work the candidate left running.
#include <ATen/ATen.h>
#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "worker/exchange_arena.hpp"
#include "worker/gpu_clock.hpp"
#include "worker/tensors.hpp"
#include "worker/timer.hpp"
#include "worker/zygote_client.hpp"

namespace kforge::worker {

namespace py = pybind11;

struct RemoteCall {
  Outputs outputs;           // cloned into the reference process's memory (or what CallOptions::keep took of them)
  std::vector<std::vector<int64_t>> output_shapes;  // each output's shape as the candidate's process gave it
  py::list inputs_after;     // the arguments as the candidate left them (arena views; read before the next call)
  Sample sample;             // timed calls: the candidate's times, bounded by kforge's clock
  std::string kernels;       // the first trial's kernel census, as the candidate process recorded it
};

class RemoteCandidate {
 public:
  RemoteCandidate(std::unique_ptr<CandidateProcess> process, bool cuda, const GpuClockMonitor* clock);

  // Before the candidate is loaded: what a timed request with `inputs` and an empty forward costs
  // by kforge's clock, the requests interleaved with `reference_call` in the timing's order (it
  // should time the reference as the timing does: flushed, held), and how long the GPU takes to
  // answer a probe while nothing else runs. `reference_call` returns the bytes of the reference's
  // outputs (a graph's timed call copies as many out of its static buffers). A GPU slow to answer
  // then is another process's: runtime_error, not the candidate's (Failure::not_the_candidates).
  struct CalibrationOptions {
    std::optional<int> cpu;  // the candidate times on this CPU (worker/cpu_pin.hpp)
    bool graph = false;      // timed as CUDA graph replays, whose inputs are copied in once more
    // A multi-rank job's: the reference calls are collectives, so every rank makes the same
    // number of them, the fewest, whatever its clock says.
    bool fixed_pairs = false;
    // The fewest pairs, whatever the clock says: the reference twin's (worker/reference_twin.hpp),
    // whose request cost bounds nothing; its idle probe and its process's state are what is wanted.
    bool fewest_pairs = false;
    // The idle probe another process of the same kind measured just before (the twin takes the
    // candidate's): one request then, for the process's state alone (its arena, its outputs'
    // copy), and no check for a shared GPU, which that measurement made.
    std::optional<double> adopted_idle_probe_ms = std::nullopt;
  };
  void calibrate(const py::list& inputs, const std::function<int64_t()>& reference_call, const CalibrationOptions& options);
  // Imports and builds the candidate there. `reference_outputs` (native candidates) shapes its
  // outputs; `training` (a training problem's, worker/training.hpp) makes its calls training steps.
  // `rank` (a multi-rank job's): the candidates' group to join before the candidate is imported.
  void load(const protocol::EvalJob& job, const std::vector<at::Tensor>& reference_outputs, const nlohmann::json& training,
            const nlohmann::json& rank = nullptr);
  // Builds the problem's own Model there instead (the reference twin, worker/reference_twin.hpp):
  // the process imports no candidate, and its calls time the reference as the candidate's are
  // timed. `folder`: where the problems it may time after this one are (its sandbox, entered at
  // its first load, lets it read there; a later load ignores it).
  void load_reference(const protocol::EvalJob& job, const nlohmann::json& training, const std::string& folder);
  // The reference's problem let go in its process (its model, the arena, its allocator's cache),
  // the arena here too: the process may then be given another problem's reference in the folder
  // its first load named (release_process() and a new RemoteCandidate). Asked now, the process
  // working on it while kforge does other things; finish_unload_reference() waits for its answer,
  // a Failure where it did not answer so.
  void begin_unload_reference();
  void finish_unload_reference();

  struct CallOptions {
    std::string what;              // "trial 1/5", for messages
    int64_t output_bytes = 0;      // the reference's outputs: the space the candidate's get
    bool poison = false;           // fill the candidate's free memory and native outputs with NaN first
    bool record = false;           // record the kernels it launches (CUDA)
    std::optional<bool> timed_hold;  // timed: with the stream held or not
    bool checks = true;            // a timed call: the integrity checks after it (paired_timing.hpp's CandidateCall)
    bool graph = false;            // timed as a CUDA graph replay
    std::optional<uint64_t> forward_seed;  // torch's generators seeded with it before the forward
    std::optional<int> cpu;        // timed on this CPU, as the reference is (worker/cpu_pin.hpp)
    int64_t settle_allocator = 0;  // the first forward: settle_allocator_for_plans(this) before it (worker/plan_choice.hpp)
    // What of each output to take out of the arena, as a tensor of its own (empty: all of it, a
    // copy). A timed call's recheck reads a sample only (paired_timing.hpp's RecheckSample).
    std::function<at::Tensor(const at::Tensor&)> keep;
    // Where its inputs go in the arena (worker/input_layouts.hpp): layout `pair` mod
    // `input_layouts`, the arena sized for all of them; a negative pair takes the first.
    int input_layouts = 1;
    int pair = -1;
    // An untimed call's drain check after it (drain_gpu). Off only for a reference twin's first
    // call made beside another twin's start (worker/reference_twin.cpp): it runs no candidate
    // code, and the GPU work the probe would wait behind is the other twin's.
    bool drain = true;
  };
  RemoteCall call(const py::list& inputs, const CallOptions& options);
  // With the candidate stopped and drained (after the timing): a GPU still slow to answer a probe
  // is another process's, and the job ends as calibrate()'s check ends it. `when` is for the message.
  void check_gpu_alone(const std::string& when);

  // While a request waits for the process's answer, the interpreter's lock is let go, so that
  // another thread's reference twin (worker/reference_twin.cpp, started side by side) prepares its
  // next request meanwhile. Not for a timed call, whose outputs are read inside its request.
  void release_gil_while_waiting(bool release) { release_gil_ = release; }

  pid_t pid() const { return process_->pid(); }
  const std::string& scratch() const { return process_->scratch(); }
  double request_overhead_ms() const { return request_overhead_ms_; }  // calibrate()'s figure
  double idle_probe_ms() const { return idle_probe_ms_; }                // calibrate()'s figure
  // The process, given back (the spare's recalibration lends it here); this object is spent.
  std::unique_ptr<CandidateProcess> release_process() { return std::move(process_); }
  std::string describe_timing() const;  // GPU work charged after its calls, for the message; empty if none

 private:
  void ensure_arena(int64_t bytes);
  // Copies the tensor inputs into the arena from offset `start`; their descriptions, the views
  // (appended to `views`), and the first free offset after them.
  nlohmann::json place_inputs(const py::list& inputs, int64_t start, py::list& views, int64_t* end);
  // The outputs `frame` describes (a timed call's timed frame, or a call's reply), checked against
  // the space given for them (from `out_offset`, `output_capacity` bytes) and copied out into `out`.
  void read_outputs(const nlohmann::json& frame, int64_t out_offset, int64_t output_capacity, const CallOptions& options,
                    RemoteCall& out);
  // A timed call's sample from its timed frame's report `s`, bounded by kforge's clock (`outer_ms`
  // around the request) and charged `drained` ms of GPU work found after it; `what` for the trace.
  Sample timed_sample(const nlohmann::json& s, bool hold, double outer_ms, double drained, const std::string& what);
  double drain_gpu(const std::string& what);  // [ms] beyond an idle probe that the GPU stayed busy
  // Ends the candidate's process and tells whether the GPU stays busy all the same (another
  // process's work); drain_gpu asks when the GPU stayed busy too long after a call.
  bool busy_after_candidate_ends();
  // Whether the GPU answers probes within `idle_ms` a few times in a row within a context's
  // teardown time (work that is ending), or stays busy (work that is not).
  bool gpu_goes_idle(double idle_ms);
  [[noreturn]] void throw_shared_gpu(const std::string& when, double probe_ms);
  double probe_ms();
  void trace_inside(const nlohmann::json& reply);
  // process_->request, the interpreter's lock let go meanwhile where release_gil_while_waiting asked.
  nlohmann::json request(const nlohmann::json& message, double* outer_ms = nullptr, int fd = -1,
                         nlohmann::json* timed = nullptr);

  std::unique_ptr<CandidateProcess> process_;
  std::unique_ptr<ExchangeArena> arena_;
  bool cuda_;
  bool release_gil_ = false;
  const GpuClockMonitor* clock_;
  int calls_ = 0;  // calls made to this process (trace_inside sets its first apart)
  double request_overhead_ms_ = 0;  // kforge's clock minus the reported host time, empty timed call
  double idle_probe_ms_ = 0;
  at::Tensor probe_;
  double drained_ms_ = 0;     // GPU time found after the candidate's calls, charged to them [ms]
};

}  // namespace kforge::worker
