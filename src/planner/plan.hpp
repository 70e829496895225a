#pragma once
// The planner: turns "evaluate these candidates" into jobs, each with a key that identifies its
// result in the store, so a job already done is reused instead of run again.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build/build_service.hpp"
#include "protocol/messages.hpp"
#include "suite/candidate.hpp"
#include "suite/problem.hpp"
#include "suite/static_checks.hpp"

namespace kforge {

// Every knob of an evaluation. All of it except the resource bounds (timeout, host memory) goes
// into the evaluation key.
// What a candidate's scratch folder may hold by default (--scratch-disk), and so its largest file.
inline constexpr double kDefaultScratchDiskGib = 8;

struct EvalSettings {
  std::string device = "auto";  // auto | cpu | cuda | cuda:N
  std::string precision;  // empty: the problem's declared precision, else fp32
  int correctness_trials = 5;
  std::optional<double> atol, rtol;  // default: per dtype (fp32 1e-4, fp16/bf16 1e-2)
  std::string fallback = "mixed";    // mixed | strict: may the candidate launch only library kernels
  protocol::TimingSettings timing;
  int timeout_s = 300;  // per job, wall clock [s]
  double host_memory_gib = 0;  // per worker, resident; 0: three quarters of RAM shared by the workers
  double cpu_cores = 0;        // per worker, busy cores averaged over 3 s; 0: the cores shared by the workers
  double scratch_disk_gib = kDefaultScratchDiskGib;  // what a candidate's scratch folder may hold (and its largest file); 0: unbounded
  std::string arch = "auto";  // cuda builds: sm_XY of the device, or as given
  bool force = false;   // evaluate again even when the store has the result
};

// What enters the key: the settings that change a result (not the timeout, not --force).
nlohmann::json settings_json(const EvalSettings& s);

struct PlannedEval {
  Problem problem;
  Candidate candidate;
  std::string problem_name;    // shown in tables: "level1/19_ReLU"
  std::string candidate_name;  // shown in tables: path relative to the folder given
  // Set when the candidate file could not be read: it gets load_error without a job (and is not
  // stored, having no content to key it by).
  std::string load_failure;

  // Native candidates (cpp, cuda) are built before their job; a failed build is compile_error.
  build::Format format = build::Format::kernelbench;
  std::string build_key;
  std::filesystem::path library;
  std::optional<std::string> build_failure;  // the condensed compiler diagnostics
  std::optional<StaticFinding> static_finding;  // rejected before running (suite/static_checks.hpp)
  bool build_cached = false;                 // found in the build cache, not compiled now
  double build_seconds = 0;                  // compile time when compiled now [s]
};

// One planned evaluation of the candidate in `file` (shown as `name`), its static check done. A
// file that cannot be read is kept, with load_failure set, to be judged load_error. The format is
// left to the caller (a candidate's extension, and what the device can run, decide it).
PlannedEval plan_candidate(const Problem& problem, const std::filesystem::path& file, const std::string& name);

// sha256 over the problem's and candidate's content, the settings and the worker's identity
// (device model, torch version): a result is reused only where all of them are the same.
std::string evaluation_key(const PlannedEval& e, const nlohmann::json& settings, const protocol::WorkerInfo& worker);

}  // namespace kforge
