#include "store/store.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "common/errors.hpp"

namespace kforge {
namespace {

std::string now_utc() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

constexpr const char* kRecordColumns =
    "e.id, e.eval_key, e.problem_hash, e.candidate_hash, e.device, e.device_name, e.torch_version, "
    "e.settings, e.verdict, e.rule, e.message, e.trials_passed, e.trials_total, e.max_abs_error, "
    "e.max_rel_error, e.ref_ms, e.cand_ms, e.speedup, e.speedup_ci_low, e.speedup_ci_high, e.wall_s, "
    "e.created_at, p.level, p.problem_id, e.load_s, e.correctness_s, e.timing_s, e.process_allowance";

// A call of one sample, as the lookups below fill it in.
ModelCall sample_call(const std::string& model, const std::string& problem_hash, const std::string& format, int sample) {
  ModelCall c;
  c.model = model;
  c.problem_hash = problem_hash;
  c.format = format;
  c.sample = sample;
  return c;
}

}  // namespace

Store::Store(const std::filesystem::path& path) : db_(path) { migrate(db_); }

void Store::put_build(const std::string& build_key, const std::string& format, const std::string& candidate_hash,
                      bool ok, double seconds, const std::string& diagnostics, const std::string& log,
                      const std::string& kernels_json) {
  db_.prepare(
         "INSERT OR REPLACE INTO builds(build_key, format, candidate_hash, ok, seconds, diagnostics, log, kernels,"
         " created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
      .bind(1, build_key).bind(2, format).bind(3, candidate_hash).bind(4, int64_t{ok}).bind(5, seconds)
      .bind(6, diagnostics).bind(7, log).bind(8, kernels_json).bind(9, now_utc())
      .run();
}

std::optional<std::string> Store::build_log(const std::string& build_key) {
  auto s = db_.prepare("SELECT log FROM builds WHERE build_key = ?1");
  s.bind(1, build_key);
  if (!s.step()) return std::nullopt;
  return s.text_at(0);
}

void Store::put_problem_metadata(const ProblemMetadata& m) {
  db_.prepare(
         "INSERT OR REPLACE INTO problem_metadata(problem_hash, torch_version, precision, flops, input_bytes, "
         "param_count, param_bytes, output_bytes, outputs, error, computed_at, tf32_flops) "
         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)")
      .bind(1, m.problem_hash).bind(2, m.torch_version).bind(3, m.precision).bind(4, m.flops).bind(5, m.input_bytes)
      .bind(6, m.param_count).bind(7, m.param_bytes).bind(8, m.output_bytes).bind(9, m.outputs_json).bind(10, m.error)
      .bind(11, now_utc()).bind(12, m.tf32_flops)
      .run();
}

std::optional<ProblemMetadata> Store::find_problem_metadata(const std::string& problem_hash,
                                                            const std::string& torch_version,
                                                            const std::string& precision) {
  auto s = db_.prepare(
      "SELECT flops, input_bytes, param_count, param_bytes, output_bytes, outputs, error, tf32_flops "
      "FROM problem_metadata WHERE problem_hash = ?1 AND torch_version = ?2 AND precision = ?3");
  s.bind(1, problem_hash).bind(2, torch_version).bind(3, precision);
  if (!s.step()) return std::nullopt;
  ProblemMetadata m;
  m.problem_hash = problem_hash;
  m.torch_version = torch_version;
  m.precision = precision;
  m.flops = s.optional_int_at(0);
  m.input_bytes = s.optional_int_at(1);
  m.param_count = s.optional_int_at(2);
  m.param_bytes = s.optional_int_at(3);
  m.output_bytes = s.optional_int_at(4);
  m.outputs_json = s.text_at(5);
  if (!s.is_null(6)) m.error = s.text_at(6);
  m.tf32_flops = s.optional_int_at(7);
  if (!m.error && m.flops && !m.tf32_flops) return std::nullopt;  // derived before schema 15: derive again
  return m;
}

void Store::put_device_peaks(const DevicePeaks& p) {
  nlohmann::json flops = p.matmul_flops_per_s;
  db_.prepare(
         "INSERT OR REPLACE INTO device_peaks(device_name, torch_version, copy_bytes_per_s, matmul_flops, measured_at, "
         "properties) "
         "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(1, p.device_name).bind(2, p.torch_version).bind(3, p.copy_bytes_per_s).bind(4, flops.dump())
      .bind(5, now_utc()).bind(6, nlohmann::json(p.properties).dump())
      .run();
}

std::optional<DevicePeaks> Store::find_device_peaks(const std::string& device_name, const std::string& torch_version) {
  auto s = db_.prepare(
      "SELECT copy_bytes_per_s, matmul_flops, properties FROM device_peaks WHERE device_name = ?1 AND torch_version = ?2");
  s.bind(1, device_name).bind(2, torch_version);
  if (!s.step()) return std::nullopt;
  DevicePeaks p;
  p.device_name = device_name;
  p.torch_version = torch_version;
  p.copy_bytes_per_s = s.real_at(0);
  p.matmul_flops_per_s = nlohmann::json::parse(s.text_at(1)).get<std::map<std::string, double>>();
  if (!s.is_null(2)) p.properties = nlohmann::json::parse(s.text_at(2)).get<std::map<std::string, double>>();
  return p;
}

void Store::put_agent_run(int64_t run_id, const std::string& options_json) {
  db_.prepare("INSERT OR REPLACE INTO agent_runs(run_id, options) VALUES (?1, ?2)").bind(1, run_id).bind(2, options_json).run();
}

std::optional<std::string> Store::agent_run_options(int64_t run_id) {
  auto s = db_.prepare("SELECT options FROM agent_runs WHERE run_id = ?1");
  s.bind(1, run_id);
  if (!s.step()) return std::nullopt;
  return s.text_at(0);
}

int64_t Store::insert_agent_node(const AgentNode& n) {
  db_.prepare(
         "INSERT INTO agent_nodes(run_id, problem_hash, parent_id, round, role, direction, model, prompt, answer, outcome, "
         "candidate_hash, candidate_path, verdict, input_tokens, output_tokens, cost_usd, latency_s, created_at) VALUES "
         "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)")
      .bind(1, n.run_id).bind(2, n.problem_hash).bind(3, n.parent_id).bind(4, n.round).bind(5, n.role)
      .bind(6, n.direction).bind(7, n.model).bind(8, n.prompt_json).bind(9, n.answer).bind(10, n.outcome)
      .bind(11, n.candidate_hash).bind(12, n.candidate_path).bind(13, n.verdict).bind(14, n.input_tokens)
      .bind(15, n.output_tokens).bind(16, n.cost_usd).bind(17, n.latency_s).bind(18, now_utc())
      .run();
  return db_.last_insert_rowid();
}

void Store::finish_agent_node(const AgentNode& n) {
  db_.prepare("UPDATE agent_nodes SET evaluation_id = ?2, verdict = ?3, speedup = ?4, kernel_win = ?5, digest = ?6 "
              "WHERE id = ?1")
      .bind(1, n.id).bind(2, n.evaluation_id).bind(3, n.verdict).bind(4, n.speedup).bind(5, n.kernel_win ? 1 : 0)
      .bind(6, n.digest)
      .run();
}

std::vector<AgentNode> Store::agent_nodes(int64_t run_id) {
  auto s = db_.prepare(
      "SELECT id, run_id, problem_hash, parent_id, round, role, direction, model, prompt, answer, outcome, "
      "candidate_hash, candidate_path, evaluation_id, verdict, speedup, kernel_win, digest, input_tokens, "
      "output_tokens, cost_usd, latency_s FROM agent_nodes WHERE run_id = ?1 ORDER BY id");
  s.bind(1, run_id);
  std::vector<AgentNode> out;
  while (s.step()) {
    AgentNode n;
    n.id = s.int_at(0);
    n.run_id = s.int_at(1);
    n.problem_hash = s.text_at(2);
    if (!s.is_null(3)) n.parent_id = s.int_at(3);
    n.round = static_cast<int>(s.int_at(4));
    n.role = s.text_at(5);
    n.direction = s.text_at(6);
    n.model = s.text_at(7);
    n.prompt_json = s.text_at(8);
    n.answer = s.text_at(9);
    n.outcome = s.text_at(10);
    if (!s.is_null(11)) n.candidate_hash = s.text_at(11);
    if (!s.is_null(12)) n.candidate_path = s.text_at(12);
    if (!s.is_null(13)) n.evaluation_id = s.int_at(13);
    if (!s.is_null(14)) n.verdict = s.text_at(14);
    if (!s.is_null(15)) n.speedup = s.real_at(15);
    n.kernel_win = s.int_at(16) != 0;
    if (!s.is_null(17)) n.digest = s.text_at(17);
    n.input_tokens = s.int_at(18);
    n.output_tokens = s.int_at(19);
    n.cost_usd = s.real_at(20);
    n.latency_s = s.real_at(21);
    out.push_back(std::move(n));
  }
  return out;
}

std::optional<AgentNode> Store::recorded_attempt(const std::string& problem_hash, int k) {
  auto s = db_.prepare("SELECT run_id FROM agent_nodes WHERE problem_hash = ?1 ORDER BY run_id DESC LIMIT 1");
  s.bind(1, problem_hash);
  if (!s.step() || k < 1) return std::nullopt;
  int seen = 0;
  for (auto& n : agent_nodes(s.int_at(0)))
    if (n.problem_hash == problem_hash && ++seen == k) return std::move(n);
  return std::nullopt;
}

void Store::insert_model_call(const ModelCall& c) {
  auto insert = db_.prepare(
      "INSERT INTO model_calls(model, provider_model, problem_hash, format, sample, prompt_hash, prompt, answer, "
      "outcome, message, input_tokens, output_tokens, cost_usd, latency_s, attempts, http_status, candidate_hash, "
      "candidate_path, created_at, settings) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
      "?16, ?17, ?18, ?19, ?20)");
  insert.bind(1, c.model).bind(2, c.provider_model).bind(3, c.problem_hash).bind(4, c.format).bind(5, c.sample)
      .bind(6, c.prompt_hash).bind(7, c.prompt_json).bind(8, c.answer).bind(9, c.outcome).bind(10, c.message)
      .bind(11, c.input_tokens).bind(12, c.output_tokens).bind(13, c.cost_usd).bind(14, c.latency_s)
      .bind(15, c.attempts).bind(16, c.http_status).bind(17, c.candidate_hash).bind(18, c.candidate_path)
      .bind(19, now_utc());
  if (!c.settings_json.empty()) insert.bind(20, c.settings_json);
  insert.run();
}

std::optional<ModelCall> Store::generated_call(const std::string& model, const std::string& problem_hash,
                                               const std::string& format, int sample, const std::string& prompt_hash,
                                               const std::string& settings_json) {
  auto s = db_.prepare(
      "SELECT candidate_hash, candidate_path, input_tokens, output_tokens, cost_usd FROM model_calls WHERE model = ?1 "
      "AND problem_hash = ?2 AND format = ?3 AND sample = ?4 AND outcome = 'ok' AND candidate_hash IS NOT NULL "
      "AND prompt_hash = ?5 AND (settings IS NULL OR settings = ?6) ORDER BY id DESC LIMIT 1");
  s.bind(1, model).bind(2, problem_hash).bind(3, format).bind(4, sample).bind(5, prompt_hash).bind(6, settings_json);
  if (!s.step()) return std::nullopt;
  ModelCall c = sample_call(model, problem_hash, format, sample);
  c.prompt_hash = prompt_hash;
  c.candidate_hash = s.text_at(0);
  c.candidate_path = s.text_at(1);
  c.input_tokens = s.int_at(2);
  c.output_tokens = s.int_at(3);
  c.cost_usd = s.real_at(4);
  return c;
}

std::optional<ModelCall> Store::recorded_call(const std::string& model, const std::string& problem_hash,
                                              const std::string& format, int sample) {
  auto s = db_.prepare(
      "SELECT provider_model, answer, outcome, input_tokens, output_tokens, cost_usd FROM model_calls WHERE model = ?1 AND "
      "problem_hash = ?2 AND format = ?3 AND sample = ?4 AND outcome IN ('ok', 'no_code', 'wrong_format') "
      "ORDER BY id DESC LIMIT 1");
  s.bind(1, model).bind(2, problem_hash).bind(3, format).bind(4, sample);
  if (!s.step()) return std::nullopt;
  ModelCall c = sample_call(model, problem_hash, format, sample);
  c.provider_model = s.text_at(0);
  c.answer = s.text_at(1);
  c.outcome = s.text_at(2);
  c.input_tokens = s.int_at(3);
  c.output_tokens = s.int_at(4);
  c.cost_usd = s.real_at(5);
  return c;
}

std::optional<DevicePeaks> Store::latest_device_peaks(const std::string& device_name) {
  auto s = db_.prepare(
      "SELECT device_name, torch_version FROM device_peaks WHERE ?1 = '' OR device_name = ?1 "
      "ORDER BY measured_at DESC LIMIT 1");
  s.bind(1, device_name);
  if (!s.step()) return std::nullopt;
  const std::string name = s.text_at(0), torch = s.text_at(1);
  return find_device_peaks(name, torch);
}

void Store::put_baseline(const Baseline& b) {
  db_.prepare(
         "INSERT OR REPLACE INTO baselines(problem_hash, mode, device_name, torch_version, mean_ms, std_ms, min_ms, "
         "max_ms, median_ms, num_trials, error, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)")
      .bind(1, b.problem_hash).bind(2, b.mode).bind(3, b.device_name).bind(4, b.torch_version).bind(5, b.mean_ms)
      .bind(6, b.std_ms).bind(7, b.min_ms).bind(8, b.max_ms).bind(9, b.median_ms).bind(10, b.num_trials)
      .bind(11, b.error).bind(12, now_utc())
      .run();
}

std::optional<Baseline> Store::find_baseline(const std::string& problem_hash, const std::string& mode,
                                             const std::string& device_name, const std::string& torch_version) {
  auto s = db_.prepare(
      "SELECT mean_ms, std_ms, min_ms, max_ms, median_ms, num_trials, error FROM baselines "
      "WHERE problem_hash = ?1 AND mode = ?2 AND device_name = ?3 AND torch_version = ?4");
  s.bind(1, problem_hash).bind(2, mode).bind(3, device_name).bind(4, torch_version);
  if (!s.step()) return std::nullopt;
  Baseline b;
  b.problem_hash = problem_hash;
  b.mode = mode;
  b.device_name = device_name;
  b.torch_version = torch_version;
  b.mean_ms = s.optional_real_at(0);
  b.std_ms = s.optional_real_at(1);
  b.min_ms = s.optional_real_at(2);
  b.max_ms = s.optional_real_at(3);
  b.median_ms = s.optional_real_at(4);
  b.num_trials = s.int_at(5);
  if (!s.is_null(6)) b.error = s.text_at(6);
  return b;
}

int Store::schema_version() {
  auto s = db_.prepare("SELECT value FROM meta WHERE key='schema_version'");
  return s.step() ? std::stoi(s.text_at(0)) : 0;
}

void Store::put_problem(const Problem& p) {
  db_.prepare(
         "INSERT OR IGNORE INTO problems(hash, level, problem_id, name, path, source, first_seen) "
         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
      .bind(1, p.hash).bind(2, p.level).bind(3, p.id).bind(4, p.name)
      .bind(5, p.path.string()).bind(6, p.source).bind(7, now_utc())
      .run();
}

void Store::put_candidate(const Candidate& c) {
  db_.prepare("INSERT OR IGNORE INTO candidates(hash, path, source, first_seen) VALUES (?1, ?2, ?3, ?4)")
      .bind(1, c.hash).bind(2, c.path.string()).bind(3, c.source).bind(4, now_utc())
      .run();
}

std::optional<std::string> Store::candidate_source(const std::string& candidate_hash) {
  auto s = db_.prepare("SELECT source FROM candidates WHERE hash = ?1");
  s.bind(1, candidate_hash);
  if (!s.step()) return std::nullopt;
  return s.text_at(0);
}

std::map<std::string, std::string> Store::candidate_models() {
  auto s = db_.prepare(
      "SELECT candidate_hash, model FROM model_calls WHERE candidate_hash IS NOT NULL"
      " UNION SELECT candidate_hash, model FROM agent_nodes WHERE candidate_hash IS NOT NULL ORDER BY 1, 2");
  std::map<std::string, std::string> out;
  while (s.step()) {
    auto& models = out[s.text_at(0)];
    models += (models.empty() ? "" : ", ") + s.text_at(1);
  }
  return out;
}

std::optional<double> Store::typical_eager_ms(const std::string& problem_hash) {
  auto s = db_.prepare(
      "SELECT median_ms FROM baselines WHERE problem_hash = ?1 AND mode = 'eager' AND median_ms IS NOT NULL "
      "ORDER BY measured_at DESC LIMIT 1");
  s.bind(1, problem_hash);
  if (!s.step()) return std::nullopt;
  return s.real_at(0);
}

std::vector<std::string> Store::find_candidates(const std::string& path_or_hash) {
  std::vector<std::string> out;
  auto add = [&](sqlite::Statement& s) {
    while (s.step())
      if (std::find(out.begin(), out.end(), s.text_at(0)) == out.end()) out.push_back(s.text_at(0));
  };
  const bool hex = path_or_hash.size() >= 6 && path_or_hash.size() <= 64 &&
                   path_or_hash.find_first_not_of("0123456789abcdef") == std::string::npos;
  if (hex) {
    // The prefix compared by its own length: a LIKE pattern would take '_' and '%' from the text.
    auto s = db_.prepare("SELECT hash FROM candidates WHERE substr(hash, 1, length(?1)) = ?1 ORDER BY first_seen DESC");
    s.bind(1, path_or_hash);
    add(s);
  }
  auto s = db_.prepare(
      "SELECT hash FROM (SELECT hash, first_seen AS at FROM candidates WHERE path = ?1"
      " UNION ALL SELECT candidate_hash, created_at FROM model_calls WHERE candidate_path = ?1 AND candidate_hash IS NOT NULL"
      " UNION ALL SELECT candidate_hash, created_at FROM agent_nodes WHERE candidate_path = ?1 AND candidate_hash IS NOT NULL)"
      " ORDER BY at DESC");
  s.bind(1, path_or_hash);
  add(s);
  return out;
}

std::vector<EvaluationRecord> Store::candidate_evaluations(const std::string& candidate_hash) {
  auto s = db_.prepare(std::string("SELECT ") + kRecordColumns +
                       ", p.name FROM evaluations e JOIN problems p ON p.hash = e.problem_hash"
                       " WHERE e.candidate_hash = ?1 ORDER BY e.id DESC");
  s.bind(1, candidate_hash);
  std::vector<EvaluationRecord> out;
  while (s.step()) {
    auto r = read_record(s);
    r.problem_name = s.text_at(28);
    load_samples(r);
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<Store::CandidateOrigin> Store::candidate_origin(const std::string& candidate_hash) {
  auto s = db_.prepare(
      "SELECT how, model, prompt, answer, created_at, input_tokens, output_tokens, cost_usd FROM ("
      " SELECT 'generate' AS how, model, prompt, answer, created_at, input_tokens, output_tokens, cost_usd, id AS k, 0 AS agent"
      "   FROM model_calls WHERE candidate_hash = ?1"
      " UNION ALL SELECT 'agent attempt ' || id || ' (' || role || ', round ' || round || ')', model, prompt, answer,"
      "   created_at, input_tokens, output_tokens, cost_usd, id, 1 FROM agent_nodes WHERE candidate_hash = ?1)"
      " ORDER BY created_at DESC, agent DESC, k DESC LIMIT 1");
  s.bind(1, candidate_hash);
  if (!s.step()) return std::nullopt;
  return CandidateOrigin{s.text_at(0), s.text_at(1), s.text_at(2), s.text_at(3), s.text_at(4), s.int_at(5), s.int_at(6),
                         s.real_at(7)};
}

EvaluationRecord Store::read_record(sqlite::Statement& s) {
  EvaluationRecord r;
  r.id = s.int_at(0);
  r.eval_key = s.text_at(1);
  r.problem_hash = s.text_at(2);
  r.candidate_hash = s.text_at(3);
  r.device = s.text_at(4);
  r.device_name = s.text_at(5);
  r.torch_version = s.text_at(6);
  r.settings = nlohmann::json::parse(s.text_at(7), nullptr, false);
  auto verdict = verdict_from_string(s.text_at(8));
  if (!verdict) throw Error("store: evaluation " + std::to_string(r.id) + " has an unknown verdict");
  r.verdict = *verdict;
  r.rule = s.text_at(9);
  r.message = s.text_at(10);
  r.trials_passed = static_cast<int>(s.int_at(11));
  r.trials_total = static_cast<int>(s.int_at(12));
  r.max_abs_error = s.optional_real_at(13);
  r.max_rel_error = s.optional_real_at(14);
  r.ref_ms = s.optional_real_at(15);
  r.cand_ms = s.optional_real_at(16);
  r.speedup = s.optional_real_at(17);
  if (!s.is_null(18) && !s.is_null(19)) r.speedup_ci = stats::Interval{s.real_at(18), s.real_at(19)};
  r.wall_s = s.real_at(20);
  r.created_at = s.text_at(21);
  r.level = static_cast<int>(s.int_at(22));
  r.problem_id = static_cast<int>(s.int_at(23));
  r.load_s = s.real_at(24);
  r.correctness_s = s.real_at(25);
  r.timing_s = s.real_at(26);
  r.process_allowance = s.optional_real_at(27);
  return r;
}

void Store::load_samples(EvaluationRecord& r) {
  auto s = db_.prepare(
      "SELECT side, event_ms, host_ms, process FROM samples WHERE evaluation_id = ?1 ORDER BY side, idx");
  s.bind(1, r.id);
  while (s.step()) {
    bool ref = s.text_at(0) == "ref";
    (ref ? r.ref_samples_ms : r.cand_samples_ms).push_back(s.real_at(1));
    if (!s.is_null(2)) (ref ? r.ref_host_ms : r.cand_host_ms).push_back(s.real_at(2));
    if (ref && !s.is_null(3)) r.ref_process.push_back(static_cast<int>(s.int_at(3)));
  }
}

std::optional<EvaluationRecord> Store::find_evaluation(const std::string& eval_key) {
  auto s = db_.prepare(std::string("SELECT ") + kRecordColumns +
                       " FROM evaluations e JOIN problems p ON p.hash = e.problem_hash"
                       " WHERE e.eval_key = ?1 ORDER BY e.id DESC LIMIT 1");
  s.bind(1, eval_key);
  if (!s.step()) return std::nullopt;
  auto r = read_record(s);
  load_samples(r);
  return r;
}

std::optional<double> Store::largest_process_allowance(const std::string& problem_hash, const std::string& device_name,
                                                       const std::string& torch_version, double past) {
  auto s = db_.prepare(
      "SELECT max(process_allowance) FROM evaluations WHERE problem_hash = ?1 AND device_name = ?2"
      " AND torch_version = ?3 AND process_allowance > ?4");
  s.bind(1, problem_hash).bind(2, device_name).bind(3, torch_version).bind(4, past);
  if (!s.step()) return std::nullopt;
  return s.optional_real_at(0);
}

int64_t Store::insert_evaluation(const EvaluationRecord& r) {
  sqlite::Transaction tx(db_);
  auto s = db_.prepare(
      "INSERT INTO evaluations(eval_key, problem_hash, candidate_hash, device, device_name, torch_version,"
      " settings, verdict, rule, message, trials_passed, trials_total, max_abs_error, max_rel_error,"
      " ref_ms, cand_ms, speedup, speedup_ci_low, speedup_ci_high, wall_s, created_at, load_s, correctness_s,"
      " timing_s, process_allowance)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,"
      " ?22, ?23, ?24, ?25)");
  s.bind(1, r.eval_key).bind(2, r.problem_hash).bind(3, r.candidate_hash).bind(4, r.device)
      .bind(5, r.device_name).bind(6, r.torch_version).bind(7, r.settings.dump())
      .bind(8, std::string(to_string(r.verdict))).bind(9, r.rule).bind(10, r.message)
      .bind(11, r.trials_passed).bind(12, r.trials_total).bind(13, r.max_abs_error)
      .bind(14, r.max_rel_error).bind(15, r.ref_ms).bind(16, r.cand_ms).bind(17, r.speedup);
  if (r.speedup_ci) s.bind(18, r.speedup_ci->low).bind(19, r.speedup_ci->high);
  else s.bind(18, std::nullopt).bind(19, std::nullopt);
  s.bind(20, r.wall_s).bind(21, r.created_at.empty() ? now_utc() : r.created_at);
  s.bind(22, r.load_s).bind(23, r.correctness_s).bind(24, r.timing_s).bind(25, r.process_allowance);
  s.run();
  int64_t id = db_.last_insert_rowid();

  auto sample = db_.prepare(
      "INSERT INTO samples(evaluation_id, side, idx, event_ms, host_ms, process) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  auto put_side = [&](const char* side, const std::vector<double>& event, const std::vector<double>& host,
                      const std::vector<int>& process) {
    // A process for every sample or none (a list of another length is not the samples').
    const bool processes = process.size() == event.size();
    for (size_t i = 0; i < event.size(); ++i) {
      sample.reset();
      sample.bind(1, id).bind(2, side).bind(3, static_cast<int64_t>(i)).bind(4, event[i]);
      if (i < host.size()) sample.bind(5, host[i]);
      else sample.bind(5, std::nullopt);
      if (processes) sample.bind(6, static_cast<int64_t>(process[i]));
      else sample.bind(6, std::nullopt);
      sample.run();
    }
  };
  put_side("ref", r.ref_samples_ms, r.ref_host_ms, r.ref_process);
  put_side("cand", r.cand_samples_ms, r.cand_host_ms, {});
  tx.commit();
  return id;
}

std::optional<int64_t> Store::name_taken_by_another_command(const std::string& name, const std::string& command) {
  auto s = db_.prepare("SELECT id, command FROM runs WHERE name = ?1");
  s.bind(1, name);
  if (!s.step() || s.text_at(1) == command) return std::nullopt;
  return s.int_at(0);
}

int64_t Store::begin_run(const std::string& command, const std::string& device, const std::string& name,
                         bool* continued) {
  if (continued) *continued = false;
  if (!name.empty()) {
    if (auto taken = name_taken_by_another_command(name, command))
      throw UsageError("a run named '" + name + "' exists already (run " + std::to_string(*taken) +
                       ", started by another command line); choose another --name, or see kforge runs");
    if (auto same = find_run(name)) {
      if (continued) *continued = true;
      return *same;
    }
  }
  auto insert = db_.prepare("INSERT INTO runs(started_at, command, device, name) VALUES (?1, ?2, ?3, ?4)");
  insert.bind(1, now_utc()).bind(2, command).bind(3, device);
  if (!name.empty()) insert.bind(4, name);
  insert.run();
  return db_.last_insert_rowid();
}

void Store::set_run_cost(int64_t run_id, const RunCost& c) {
  db_.prepare("UPDATE runs SET model_calls = ?2, input_tokens = ?3, output_tokens = ?4, cost_usd = ?5 WHERE id = ?1")
      .bind(1, run_id).bind(2, c.calls).bind(3, c.input_tokens).bind(4, c.output_tokens).bind(5, c.usd)
      .run();
}

std::optional<int64_t> Store::find_run(const std::string& id_or_name) {
  auto by_name = db_.prepare("SELECT id FROM runs WHERE name = ?1");
  by_name.bind(1, id_or_name);
  if (by_name.step()) return by_name.int_at(0);
  // A name wins over an id: a run may be named "3".
  if (id_or_name.empty() || id_or_name.find_first_not_of("0123456789") != std::string::npos || id_or_name.size() > 18)
    return std::nullopt;
  auto by_id = db_.prepare("SELECT id FROM runs WHERE id = ?1");
  by_id.bind(1, static_cast<int64_t>(std::stoll(id_or_name)));
  if (by_id.step()) return by_id.int_at(0);
  return std::nullopt;
}

void Store::add_to_run(int64_t run_id, const EvaluationRecord& r) {
  db_.prepare(
         "INSERT INTO run_evaluations(run_id, position, evaluation_id, problem_name, candidate_name, level,"
         " problem_id, reused) SELECT ?1, (SELECT count(*) FROM run_evaluations WHERE run_id = ?1),"
         " ?2, ?3, ?4, ?5, ?6, ?7 WHERE NOT EXISTS (SELECT 1 FROM run_evaluations WHERE run_id = ?1 AND"
         " evaluation_id = ?2 AND candidate_name = ?4)")
      .bind(1, run_id).bind(2, r.id).bind(3, r.problem_name).bind(4, r.candidate_name)
      .bind(5, r.level).bind(6, r.problem_id).bind(7, int64_t{r.reused})
      .run();
}

void Store::add_gap(int64_t run_id, const RunGap& g) {
  // Once per run: a run gone on with (begin_run) meets its gaps again.
  db_.prepare("INSERT INTO run_gaps(run_id, problem_name, candidate_name, level, problem_id, outcome, message)"
              " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE NOT EXISTS (SELECT 1 FROM run_gaps WHERE run_id = ?1 AND"
              " problem_name = ?2 AND candidate_name = ?3 AND outcome = ?6)")
      .bind(1, run_id).bind(2, g.problem_name).bind(3, g.candidate_name).bind(4, g.level).bind(5, g.problem_id)
      .bind(6, g.outcome).bind(7, g.message)
      .run();
}

std::vector<RunGap> Store::run_gaps(int64_t run_id) {
  auto s = db_.prepare("SELECT problem_name, candidate_name, level, problem_id, outcome, message FROM run_gaps"
                       " WHERE run_id = ?1 ORDER BY rowid");
  s.bind(1, run_id);
  std::vector<RunGap> out;
  while (s.step())
    out.push_back({s.text_at(0), s.text_at(1), static_cast<int>(s.int_at(2)), static_cast<int>(s.int_at(3)), s.text_at(4),
                   s.text_at(5)});
  return out;
}

std::optional<int64_t> Store::latest_run() {
  auto s = db_.prepare(
      "SELECT r.id FROM runs r WHERE EXISTS (SELECT 1 FROM run_evaluations x WHERE x.run_id = r.id)"
      " ORDER BY r.id DESC LIMIT 1");
  if (!s.step()) return std::nullopt;
  return s.int_at(0);
}

namespace {
// A run's row with its counts; its cost is the generation's it recorded, else its agent attempts'.
constexpr const char* kRunInfoQuery =
    "SELECT r.id, r.started_at, r.command, r.device, coalesce(r.name, ''),"
    " (SELECT count(*) FROM run_evaluations x WHERE x.run_id = r.id),"
    " (SELECT count(*) FROM run_evaluations x JOIN evaluations e ON e.id = x.evaluation_id"
    "   WHERE x.run_id = r.id AND e.verdict = 'correct'),"
    " (SELECT count(*) FROM run_gaps g WHERE g.run_id = r.id),"
    " r.model_calls, r.input_tokens, r.output_tokens, r.cost_usd,"
    " (SELECT count(*) FROM agent_nodes n WHERE n.run_id = r.id),"
    " (SELECT coalesce(sum(input_tokens), 0) FROM agent_nodes n WHERE n.run_id = r.id),"
    " (SELECT coalesce(sum(output_tokens), 0) FROM agent_nodes n WHERE n.run_id = r.id),"
    " (SELECT coalesce(sum(cost_usd), 0) FROM agent_nodes n WHERE n.run_id = r.id)"
    " FROM runs r";

RunInfo read_run_info(sqlite::Statement& s) {
  RunInfo r;
  r.id = s.int_at(0);
  r.started_at = s.text_at(1);
  r.command = s.text_at(2);
  r.device = s.text_at(3);
  r.name = s.text_at(4);
  r.evaluations = static_cast<int>(s.int_at(5));
  r.correct = static_cast<int>(s.int_at(6));
  r.gaps = static_cast<int>(s.int_at(7));
  if (!s.is_null(8))
    r.cost = RunCost{s.int_at(8), s.int_at(9), s.int_at(10), s.real_at(11)};
  else if (s.int_at(12) > 0)
    r.cost = RunCost{s.int_at(12), s.int_at(13), s.int_at(14), s.real_at(15)};
  return r;
}
}  // namespace

std::vector<RunInfo> Store::runs() {
  std::vector<RunInfo> out;
  auto s = db_.prepare(std::string(kRunInfoQuery) + " ORDER BY r.id");
  while (s.step()) out.push_back(read_run_info(s));
  return out;
}

std::optional<RunInfo> Store::run_info(int64_t run_id) {
  auto s = db_.prepare(std::string(kRunInfoQuery) + " WHERE r.id = ?1");
  s.bind(1, run_id);
  if (!s.step()) return std::nullopt;
  return read_run_info(s);
}

std::vector<EvaluationRecord> Store::run_evaluations(int64_t run_id) {
  auto s = db_.prepare(std::string("SELECT ") + kRecordColumns +
                       ", x.problem_name, x.candidate_name, x.level, x.problem_id, x.reused"
                       " FROM run_evaluations x JOIN evaluations e ON e.id = x.evaluation_id"
                       " JOIN problems p ON p.hash = e.problem_hash"
                       " WHERE x.run_id = ?1 ORDER BY x.position");
  s.bind(1, run_id);
  std::vector<EvaluationRecord> out;
  while (s.step()) {
    auto r = read_record(s);
    r.problem_name = s.text_at(28);
    r.candidate_name = s.text_at(29);
    r.level = static_cast<int>(s.int_at(30));
    r.problem_id = static_cast<int>(s.int_at(31));
    r.reused = s.int_at(32) != 0;
    out.push_back(std::move(r));
  }
  for (auto& r : out) load_samples(r);
  return out;
}

}  // namespace kforge
