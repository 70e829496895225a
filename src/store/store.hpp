#pragma once
// kforge's store: one SQLite file holding problems, candidates, runs, evaluations and raw timing
// samples, keyed by content hashes. Each evaluation is committed on its own as soon as it ends,
// so a killed run loses nothing already finished. Schema in store/schema.cpp.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/evaluation.hpp"
#include "store/sqlite.hpp"
#include "suite/candidate.hpp"
#include "suite/problem.hpp"

namespace kforge {

// What a problem computes (kforge problems info): derived from its file, per torch version and
// precision. When `error` is set the figures are absent.
struct ProblemMetadata {
  std::string problem_hash, torch_version, precision;
  std::optional<int64_t> flops, input_bytes, param_count, param_bytes, output_bytes;
  // The part of `flops` cuDNN runs (convolutions, recurrent layers): PyTorch's default lets it use
  // TF32 for fp32 there (torch.backends.cudnn.allow_tf32), unlike matmuls.
  std::optional<int64_t> tf32_flops;
  std::string outputs_json = "[]";  // [{shape, dtype}]
  std::optional<std::string> error;
};

// The reference's time in one mode (kforge baseline) on one device with one torch [ms].
struct Baseline {
  std::string problem_hash, mode, device_name, torch_version;
  std::optional<double> mean_ms, std_ms, min_ms, max_ms, median_ms;
  int64_t num_trials = 0;
  std::optional<std::string> error;
};

// A device's peak rates as measured (python/kforge_peaks.py): the speed of light's denominators.
struct DevicePeaks {
  std::string device_name, torch_version;
  double copy_bytes_per_s = 0;
  std::map<std::string, double> matmul_flops_per_s;  // by precision: fp32 (TF32 off), tf32, bf16, fp16
  std::map<std::string, double> properties;          // sm_count, l2_bytes, memory_bytes, compute_capability; cpu: cores

  // Whether the record holds every figure this kforge measures. A GPU record from before the TF32
  // rate (a6d04f1) or the device properties (e32917b) is measured again: without the TF32 rate an
  // fp32 problem's convolutions would be bounded at the fp32 rate, which cuDNN's TF32 default beats.
  bool complete(bool cuda) const {
    return !cuda || (matmul_flops_per_s.count("tf32") && properties.count("sm_count"));
  }
};

// One model call of kforge generate (table model_calls).
struct ModelCall {
  std::string model, provider_model, problem_hash, format;
  int sample = 0;
  std::string prompt_hash, prompt_json, answer, outcome, message;
  int64_t input_tokens = 0, output_tokens = 0;
  double cost_usd = 0, latency_s = 0;
  int attempts = 0, http_status = 0;
  std::optional<std::string> candidate_hash, candidate_path;
  // What besides the prompt shaped the answer (the provider's model, temperature, max_tokens): a
  // call under other settings is another sample. NULL in calls stored before schema 12.
  std::string settings_json;
};

// One attempt of kforge agent (table agent_nodes): a model's answer in a search tree, and what
// its evaluation said.
struct AgentNode {
  int64_t id = 0, run_id = 0;
  std::string problem_hash;
  std::optional<int64_t> parent_id;
  int round = 0;
  std::string role, direction, model, prompt_json, answer, outcome;
  std::optional<std::string> candidate_hash, candidate_path;
  std::optional<int64_t> evaluation_id;  // unset until evaluated (or when there was nothing to evaluate)
  std::optional<std::string> verdict;
  std::optional<double> speedup;
  bool kernel_win = false;
  std::string digest;
  int64_t input_tokens = 0, output_tokens = 0;
  double cost_usd = 0, latency_s = 0;
};

// Something a run was asked to judge that never became an evaluation (a sample without a
// candidate, an unreadable file): a failure in the run's fast_p.
struct RunGap {
  std::string problem_name, candidate_name;
  int level = 0, problem_id = 0;
  std::string outcome, message;
};

// What a run's model calls cost (kforge run: its generation; kforge agent: its attempts).
struct RunCost {
  int64_t calls = 0, input_tokens = 0, output_tokens = 0;
  double usd = 0;
};

struct RunInfo {
  int64_t id = 0;
  std::string started_at;
  std::string command;
  std::string device;
  int evaluations = 0;
  std::string name;             // empty: unnamed
  int correct = 0;              // evaluations judged correct
  int gaps = 0;                 // asked for and never evaluated (run_gaps)
  std::optional<RunCost> cost;  // none: no model was called for it
};

class Store {
 public:
  explicit Store(const std::filesystem::path& path);
  const std::filesystem::path& path() const { return db_.path(); }

  void put_problem(const Problem& p);
  void put_candidate(const Candidate& c);
  // The source a candidate had when it was first stored, by its hash.
  std::optional<std::string> candidate_source(const std::string& candidate_hash);
  // Which model wrote each candidate that came from a model's answer (kforge generate, run and
  // agent), by candidate hash; a source several models gave is theirs jointly ("a, b").
  std::map<std::string, std::string> candidate_models();
  // kforge show: the candidates a path (where one was first seen or a model's answer was written)
  // or a hash prefix (6 hex digits or more) names, newest first.
  std::vector<std::string> find_candidates(const std::string& path_or_hash);
  // Every evaluation of a candidate, newest first, with its problem's name.
  std::vector<EvaluationRecord> candidate_evaluations(const std::string& candidate_hash);
  // Where a model wrote the candidate: the latest generation call or agent attempt that gave it.
  struct CandidateOrigin {
    std::string how;  // "generate" or "agent attempt N (role, round R)"
    std::string model, prompt_json, answer, created_at;
    int64_t input_tokens = 0, output_tokens = 0;
    double cost_usd = 0;
  };
  std::optional<CandidateOrigin> candidate_origin(const std::string& candidate_hash);

  // The most recent evaluation stored under this key, with its samples.
  std::optional<EvaluationRecord> find_evaluation(const std::string& eval_key);
  // The largest allowance a side that the reference twins' distance gave an interval of this
  // problem on this device and torch, where it was more than `past` (the fixed allowance): the
  // problem's processes were seen to draw speeds that far apart there. Empty where none was.
  std::optional<double> largest_process_allowance(const std::string& problem_hash, const std::string& device_name,
                                                  const std::string& torch_version, double past);
  // Stores the record and its samples in one transaction; returns its id.
  int64_t insert_evaluation(const EvaluationRecord& record);

  // A new run; `name` (may be empty) must be unused, unless the run that has it was started by the
  // same command line, which goes on with it (a shard run again after preemption or a crash;
  // `continued` says so). Otherwise UsageError names the run that has it.
  int64_t begin_run(const std::string& command, const std::string& device, const std::string& name = "",
                    bool* continued = nullptr);
  // The run named `name` when another command line started it (begin_run would refuse the name).
  std::optional<int64_t> name_taken_by_another_command(const std::string& name, const std::string& command);
  void set_run_cost(int64_t run_id, const RunCost& cost);
  // A run by id ("12") or name; nothing when neither matches.
  std::optional<int64_t> find_run(const std::string& id_or_name);
  std::optional<RunInfo> run_info(int64_t run_id);

  // Copies another store's rows into this one, each once (src/store/store_merge.cpp): merging the
  // same store twice adds nothing. Refuses a store of another schema, and one whose problems of
  // the same names have other texts (another suite), with nothing merged. How many rows it added.
  struct MergeSummary {
    int64_t evaluations = 0, model_calls = 0, agent_nodes = 0, runs = 0;
  };
  MergeSummary merge_from(const std::filesystem::path& source);
  // Copies the stored baselines of another store (with their problems) into this one: what
  // --shard weighs problems by, so that every shard of a study splits alike (kforge slurm submit
  // gives each shard's store the submitting store's). How many baselines it holds afterwards.
  int64_t copy_baselines_from(const std::filesystem::path& source);
  // Adds an evaluation to a run, once: a run gone on with (begin_run) meets its evaluations again.
  void add_to_run(int64_t run_id, const EvaluationRecord& record);
  void add_gap(int64_t run_id, const RunGap& gap);
  std::vector<RunGap> run_gaps(int64_t run_id);
  std::optional<int64_t> latest_run();
  std::vector<RunInfo> runs();
  // The evaluations of a run in the order they were added, with the names the run used.
  std::vector<EvaluationRecord> run_evaluations(int64_t run_id);

  int schema_version();
  // kforge agent's runs: the options a run was started with, and its nodes.
  void put_agent_run(int64_t run_id, const std::string& options_json);
  std::optional<std::string> agent_run_options(int64_t run_id);
  int64_t insert_agent_node(const AgentNode& node);  // returns its id
  // The node's evaluation and what was made of it.
  void finish_agent_node(const AgentNode& node);
  std::vector<AgentNode> agent_nodes(int64_t run_id);  // in the order they were made
  // The k-th attempt (1-based) made for a problem in the latest agent run that has one: what a
  // replayed search gets back.
  std::optional<AgentNode> recorded_attempt(const std::string& problem_hash, int k);

  // A native build's outcome, keyed by its build key (the cache's); the newest wins.
  void put_build(const std::string& build_key, const std::string& format, const std::string& candidate_hash,
                 bool ok, double seconds, const std::string& diagnostics, const std::string& log,
                 const std::string& kernels_json);
  std::optional<std::string> build_log(const std::string& build_key);

  // The problem must have been put first (put_problem). The newest wins.
  void put_problem_metadata(const ProblemMetadata& m);
  // The problem must have been put first. The newest measurement wins.
  void put_baseline(const Baseline& b);
  void put_device_peaks(const DevicePeaks& p);  // the newest measurement wins
  std::optional<DevicePeaks> find_device_peaks(const std::string& device_name, const std::string& torch_version);
  void insert_model_call(const ModelCall& call);
  // The sample's latest call that gave a candidate under this prompt and these settings (a call
  // stored before settings were kept matches any): what resuming a batch need not pay again.
  std::optional<ModelCall> generated_call(const std::string& model, const std::string& problem_hash,
                                          const std::string& format, int sample, const std::string& prompt_hash,
                                          const std::string& settings_json);

  // The latest answered call (ok, no_code or wrong_format) of this sample: what a replay gives back.
  std::optional<ModelCall> recorded_call(const std::string& model, const std::string& problem_hash,
                                         const std::string& format, int sample);

  // The most recently measured rates of `device_name` (any device when empty), any torch.
  std::optional<DevicePeaks> latest_device_peaks(const std::string& device_name = "");
  // The latest eager baseline's median of a problem on any device [ms]: what planning a study
  // takes for its reference's time (planner/shards.hpp).
  std::optional<double> typical_eager_ms(const std::string& problem_hash);
  std::optional<Baseline> find_baseline(const std::string& problem_hash, const std::string& mode,
                                        const std::string& device_name, const std::string& torch_version);
  std::optional<ProblemMetadata> find_problem_metadata(const std::string& problem_hash, const std::string& torch_version,
                                                       const std::string& precision);

 private:
  EvaluationRecord read_record(sqlite::Statement& s);
  void load_samples(EvaluationRecord& r);

  sqlite::Database db_;
};

// The schema this build writes, and the migrations that bring an older file to it.
inline constexpr int kSchemaVersion = 18;
void migrate(sqlite::Database& db);

}  // namespace kforge
