#pragma once
// One worker: a Python process hosting kforge's extension module (src/worker/), talking the
// protocol of protocol/messages.hpp over two pipes. The process runs in its own process group so
// that killing it also kills whatever a candidate spawned.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pool/job_runner.hpp"
#include "protocol/messages.hpp"

namespace kforge {

struct WorkerConfig {
  std::filesystem::path python;      // interpreter that imports torch
  std::filesystem::path module_dir;  // holds kforge_worker.py and the _kforge_worker extension
  std::string device = "cpu";        // "cpu" or "cuda"
  std::string cuda_visible_devices;  // for cuda: the one GPU this worker sees
  std::filesystem::path log_path;    // the worker's stdout and stderr (candidates print there)
  std::chrono::seconds start_timeout{180};
  int64_t host_memory_bytes = 0;     // resident host memory a job may reach (0: unbounded)
  double cpu_cores = 0;              // cores a job may keep busy, averaged over 3 s (0: unbounded)
  // A multi-rank job's worker (pool/rank_job.hpp): the folder its references' group meets in (it
  // alone may write there, and it keeps its sockets for that group), and the one its candidates'
  // group meets in (writable by its candidates too). Empty for every other worker.
  std::filesystem::path rank_references_folder;
  std::filesystem::path rank_candidates_folder;
  // And the namespaces of the job's private network (worker/private_network.hpp's holder; the user
  // namespace's -1 where it made none), which the worker inherits and hands to its zygote for each
  // candidate process: descriptors, since the holder, forked from a non-dumpable kforge, cannot be
  // opened through /proc by another process.
  int rank_user_namespace_fd = -1;
  int rank_network_namespace_fd = -1;
};

// A fresh folder kforge-<kind>-<this kforge's pid>-XXXXXX under `root`, private to this user; the
// folders of that kind a dead kforge left there (killed outright, unable to remove them) are
// removed first.
std::filesystem::path make_owned_folder(const std::filesystem::path& root, const std::string& kind);

// A fresh scratch folder for a process that runs candidate code: its working directory and
// TMPDIR, the one place (with the caches) it may write to (make_owned_folder under $TMPDIR or /tmp).
std::filesystem::path make_scratch();

// The environment of a process that runs candidate code (a worker, a load_inline prebuild):
// kforge's, filtered by passes_to_candidate_code (common/environment_allowlist.hpp), with
// `scratch` as TMPDIR and KFORGE_WORKER_SCRATCH, `also_writable` (a multi-rank job's candidates'
// folder) as KFORGE_WORKER_WRITABLE, the build cache as KFORGE_WORKER_BUILD_CACHE (the worker
// writes it; no candidate's process reads it, worker/sandbox.hpp) and CUDA's and Triton's caches,
// the worker's alone, as KFORGE_WORKER_GPU_CACHES, torch's inductor cache in the scratch folder,
// and OMP_WAIT_POLICY=PASSIVE. The device variables are the caller's.
std::vector<std::string> sandboxed_environment(const std::filesystem::path& scratch,
                                               const std::filesystem::path& also_writable = {});

// The job bounds: host_memory (JobFailure::host_memory) and cpu_cores (JobFailure::cpu_share).
class WorkerProcess : public JobRunner {
 public:
  explicit WorkerProcess(WorkerConfig config);
  ~WorkerProcess() override;
  WorkerProcess(const WorkerProcess&) = delete;  // owns a child process and its pipes
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Starts the process if it is not running; throws kforge::Error when it cannot say hello.
  const protocol::WorkerInfo& ensure_started() override;
  // Runs one job. On timeout, crash or protocol error the process is killed; the next
  // ensure_started() starts a fresh one.
  JobOutcome run(const protocol::EvalJob& job, std::chrono::seconds deadline) override;
  std::string device_label() const override {
    return config_.device == "cuda" ? "cuda:" + config_.cuda_visible_devices : "cpu";
  }
  void stop();
  bool running() const { return pid_ > 0; }
  int restarts() const { return restarts_; }

 private:
  void start();
  void kill_now();
  std::string describe_exit();  // reaps the child; "exited with status 3", "killed by signal 11"
  std::string log_tail_since(std::uintmax_t offset) const;
  void note_in_log(const std::string& line) const;
  static std::string seconds_since(std::chrono::steady_clock::time_point t0);

  WorkerConfig config_;
  pid_t pid_ = -1;
  int to_worker_ = -1;
  int from_worker_ = -1;
  std::filesystem::path scratch_;  // the running worker's scratch folder, removed with it
  int starts_ = 0;
  int restarts_ = 0;
  protocol::WorkerInfo info_;
};

}  // namespace kforge
