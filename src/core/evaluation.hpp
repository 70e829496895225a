#pragma once
// The result model: one evaluation of one candidate against one problem. The store keeps it;
// every reporter (table, JSON lines, KernelBench export, fast_p) reads it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/verdict.hpp"
#include "metrics/statistics.hpp"

namespace kforge {

struct EvaluationRecord {
  int64_t id = 0;
  std::string eval_key;  // sha256 over problem, candidate, settings and device identity
  std::string problem_hash;
  std::string candidate_hash;
  std::string problem_name;    // "level1/19_ReLU"
  std::string candidate_name;  // as found: "level1/19_ReLU/cuda_relu.py"
  int level = 0;
  int problem_id = 0;

  std::string device;       // "cpu", "cuda:0"
  std::string device_name;  // "NVIDIA H200"
  std::string torch_version;
  nlohmann::json settings;  // every knob that shaped the result

  Verdict verdict = Verdict::runtime_error;
  std::string rule;  // for rejected
  std::string message;
  int trials_passed = 0;
  int trials_total = 0;
  std::optional<double> max_abs_error;
  std::optional<double> max_rel_error;
  std::optional<double> ref_ms;   // median [ms]
  std::optional<double> cand_ms;  // median [ms]
  std::optional<double> speedup;  // ref_ms / cand_ms
  std::optional<stats::Interval> speedup_ci;  // 95%, bootstrap over paired samples
  double wall_s = 0;  // job wall time seen by kforge [s]
  // Where the worker spent the job [s]: importing and building both models (load_inline builds
  // included), the correctness trials, the timing phase.
  double load_s = 0, correctness_s = 0, timing_s = 0;
  std::string created_at;  // UTC, ISO 8601

  std::vector<double> ref_samples_ms, cand_samples_ms;  // CUDA events (host clock on CPU)
  std::vector<double> ref_host_ms, cand_host_ms;        // host clock, device synchronised
  // Which of the reference's two timing processes (the twins, worker/reference_twin.hpp) timed
  // each pair's reference sample, 0 or 1; empty where one process timed them all. The interval's
  // widening (stats::process_allowance) is computed from it, so a stored result can be checked.
  std::vector<int> ref_process;
  // The allowance a side its twins' distance gave the interval (stats::process_allowance): set
  // where two processes timed the reference. Past kSystematicAllowance, they drew speeds apart,
  // and the problem's later evaluations on this device and torch are widened as far
  // (Store::largest_process_allowance; docs/evaluation.md, The boundary).
  std::optional<double> process_allowance;

  bool reused = false;  // this run took it from the store instead of evaluating again
};

}  // namespace kforge
