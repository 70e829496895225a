// kforge merge: another store's rows copied into this one, each once (docs/cli.md, "kforge merge").
// Rows are matched by what they are, not by their ids, which differ between stores: an evaluation
// by its key, time and wall time, a model call by its sample, prompt and time, a run by its name
// (the shards of one named study become one run) or, unnamed, by its start, command and device.
// Merging a store twice changes nothing.
#include "store/store.hpp"

#include "common/errors.hpp"

namespace kforge {
namespace {

// Statements run in order inside one transaction, the source attached as `src`. Temporary tables
// map the source's ids to this store's.
constexpr const char* kMergeSql = R"sql(
INSERT OR IGNORE INTO main.problems SELECT * FROM src.problems;
INSERT OR IGNORE INTO main.candidates SELECT * FROM src.candidates;
INSERT OR IGNORE INTO main.builds SELECT * FROM src.builds;

-- Figures measured again: the newest wins, as in each store.
INSERT INTO main.problem_metadata SELECT * FROM src.problem_metadata WHERE true
  ON CONFLICT(problem_hash, torch_version, precision) DO UPDATE SET
    flops = excluded.flops, input_bytes = excluded.input_bytes, param_count = excluded.param_count,
    param_bytes = excluded.param_bytes, output_bytes = excluded.output_bytes, outputs = excluded.outputs,
    error = excluded.error, computed_at = excluded.computed_at, tf32_flops = excluded.tf32_flops
  WHERE excluded.computed_at > problem_metadata.computed_at;
INSERT INTO main.baselines SELECT * FROM src.baselines WHERE true
  ON CONFLICT(problem_hash, mode, device_name, torch_version) DO UPDATE SET
    mean_ms = excluded.mean_ms, std_ms = excluded.std_ms, min_ms = excluded.min_ms, max_ms = excluded.max_ms,
    median_ms = excluded.median_ms, num_trials = excluded.num_trials, error = excluded.error,
    measured_at = excluded.measured_at
  WHERE excluded.measured_at > baselines.measured_at;
INSERT INTO main.device_peaks SELECT * FROM src.device_peaks WHERE true
  ON CONFLICT(device_name, torch_version) DO UPDATE SET
    copy_bytes_per_s = excluded.copy_bytes_per_s, matmul_flops = excluded.matmul_flops,
    measured_at = excluded.measured_at, properties = excluded.properties
  WHERE excluded.measured_at > device_peaks.measured_at;

INSERT INTO main.evaluations(eval_key, problem_hash, candidate_hash, device, device_name, torch_version, settings,
    verdict, rule, message, trials_passed, trials_total, max_abs_error, max_rel_error, ref_ms, cand_ms, speedup,
    speedup_ci_low, speedup_ci_high, wall_s, load_s, correctness_s, timing_s, created_at, process_allowance)
  SELECT eval_key, problem_hash, candidate_hash, device, device_name, torch_version, settings, verdict, rule, message,
    trials_passed, trials_total, max_abs_error, max_rel_error, ref_ms, cand_ms, speedup, speedup_ci_low,
    speedup_ci_high, wall_s, load_s, correctness_s, timing_s, created_at, process_allowance
  FROM src.evaluations s WHERE NOT EXISTS (SELECT 1 FROM main.evaluations t
    WHERE t.eval_key = s.eval_key AND t.created_at = s.created_at AND t.wall_s = s.wall_s);
CREATE TEMP TABLE evaluation_map AS
  SELECT s.id AS src, (SELECT t.id FROM main.evaluations t WHERE t.eval_key = s.eval_key AND
    t.created_at = s.created_at AND t.wall_s = s.wall_s ORDER BY t.id LIMIT 1) AS dst FROM src.evaluations s;
CREATE INDEX temp.evaluation_map_src ON evaluation_map(src);
INSERT OR IGNORE INTO main.samples SELECT m.dst, s.side, s.idx, s.event_ms, s.host_ms, s.process
  FROM src.samples s JOIN evaluation_map m ON m.src = s.evaluation_id;

-- Runs: a named one joins this store's run of that name; an unnamed one is matched by its start,
-- command and device.
INSERT INTO main.runs(started_at, command, device, name)
  SELECT s.started_at, s.command, s.device, s.name FROM src.runs s WHERE NOT EXISTS (SELECT 1 FROM main.runs t
    WHERE (s.name IS NOT NULL AND t.name = s.name) OR
          (s.name IS NULL AND t.name IS NULL AND t.started_at = s.started_at AND t.command = s.command AND t.device = s.device));
CREATE TEMP TABLE run_map AS
  SELECT s.id AS src, (SELECT t.id FROM main.runs t WHERE (s.name IS NOT NULL AND t.name = s.name) OR
    (s.name IS NULL AND t.name IS NULL AND t.started_at = s.started_at AND t.command = s.command AND t.device = s.device)
    ORDER BY t.id LIMIT 1) AS dst FROM src.runs s;
-- Each part a run was made of, with what its model calls cost, once: the run's cost is their sum.
-- A run of this store that had no parts yet is its own first part.
INSERT OR IGNORE INTO main.run_parts SELECT t.id, t.started_at, t.command, t.device, t.model_calls, t.input_tokens,
    t.output_tokens, t.cost_usd FROM main.runs t
  WHERE t.id IN (SELECT dst FROM run_map) AND NOT EXISTS (SELECT 1 FROM main.run_parts p WHERE p.run_id = t.id);
INSERT OR IGNORE INTO main.run_parts SELECT m.dst, s.started_at, s.command, s.device, s.model_calls, s.input_tokens,
    s.output_tokens, s.cost_usd FROM src.runs s JOIN run_map m ON m.src = s.id;
UPDATE main.runs SET
    model_calls = (SELECT sum(p.model_calls) FROM main.run_parts p WHERE p.run_id = runs.id),
    input_tokens = (SELECT sum(p.input_tokens) FROM main.run_parts p WHERE p.run_id = runs.id),
    output_tokens = (SELECT sum(p.output_tokens) FROM main.run_parts p WHERE p.run_id = runs.id),
    cost_usd = (SELECT sum(p.cost_usd) FROM main.run_parts p WHERE p.run_id = runs.id)
  WHERE id IN (SELECT dst FROM run_map);
-- A merged run's rows go after those it has (each run's next position, read once: counted per row
-- it made the merge quadratic in a run's size).
CREATE TEMP TABLE run_next AS
  SELECT m.dst AS run_id, (SELECT coalesce(max(x.position) + 1, 0) FROM main.run_evaluations x WHERE x.run_id = m.dst)
    AS next FROM (SELECT DISTINCT dst FROM run_map) m;
INSERT INTO main.run_evaluations(run_id, position, evaluation_id, problem_name, candidate_name, level, problem_id, reused)
  SELECT rm.dst, n.next + s.position, em.dst, s.problem_name, s.candidate_name, s.level, s.problem_id, s.reused
  FROM src.run_evaluations s JOIN run_map rm ON rm.src = s.run_id JOIN evaluation_map em ON em.src = s.evaluation_id
    JOIN run_next n ON n.run_id = rm.dst
  WHERE NOT EXISTS (SELECT 1 FROM main.run_evaluations x WHERE x.run_id = rm.dst AND x.evaluation_id = em.dst
    AND x.candidate_name = s.candidate_name);
INSERT INTO main.run_gaps SELECT rm.dst, s.problem_name, s.candidate_name, s.level, s.problem_id, s.outcome, s.message
  FROM src.run_gaps s JOIN run_map rm ON rm.src = s.run_id
  WHERE NOT EXISTS (SELECT 1 FROM main.run_gaps g WHERE g.run_id = rm.dst AND g.problem_name = s.problem_name AND
    g.candidate_name = s.candidate_name AND g.outcome = s.outcome);

INSERT INTO main.model_calls(model, provider_model, problem_hash, format, sample, prompt_hash, prompt, answer, outcome,
    message, input_tokens, output_tokens, cost_usd, latency_s, attempts, http_status, candidate_hash, candidate_path,
    created_at, settings)
  SELECT model, provider_model, problem_hash, format, sample, prompt_hash, prompt, answer, outcome, message,
    input_tokens, output_tokens, cost_usd, latency_s, attempts, http_status, candidate_hash, candidate_path,
    created_at, settings
  FROM src.model_calls s WHERE NOT EXISTS (SELECT 1 FROM main.model_calls t WHERE t.model = s.model AND
    t.problem_hash = s.problem_hash AND t.format = s.format AND t.sample = s.sample AND t.prompt_hash = s.prompt_hash
    AND t.created_at = s.created_at AND t.answer = s.answer);

INSERT OR IGNORE INTO main.agent_runs SELECT m.dst, s.options FROM src.agent_runs s JOIN run_map m ON m.src = s.run_id;
INSERT INTO main.agent_nodes(run_id, problem_hash, parent_id, round, role, direction, model, prompt, answer, outcome,
    candidate_hash, candidate_path, evaluation_id, verdict, speedup, kernel_win, digest, input_tokens, output_tokens,
    cost_usd, latency_s, created_at)
  SELECT rm.dst, s.problem_hash, NULL, s.round, s.role, s.direction, s.model, s.prompt, s.answer, s.outcome,
    s.candidate_hash, s.candidate_path, (SELECT em.dst FROM evaluation_map em WHERE em.src = s.evaluation_id), s.verdict,
    s.speedup, s.kernel_win, s.digest, s.input_tokens, s.output_tokens, s.cost_usd, s.latency_s, s.created_at
  FROM src.agent_nodes s JOIN run_map rm ON rm.src = s.run_id
  WHERE NOT EXISTS (SELECT 1 FROM main.agent_nodes t WHERE t.run_id = rm.dst AND t.problem_hash = s.problem_hash
    AND t.created_at = s.created_at AND t.round = s.round AND t.model = s.model AND t.answer = s.answer);
CREATE TEMP TABLE node_map AS
  SELECT s.id AS src, (SELECT t.id FROM main.agent_nodes t JOIN run_map rm ON rm.src = s.run_id WHERE t.run_id = rm.dst
    AND t.problem_hash = s.problem_hash AND t.created_at = s.created_at AND t.round = s.round AND t.model = s.model
    AND t.answer = s.answer ORDER BY t.id LIMIT 1) AS dst FROM src.agent_nodes s;
UPDATE main.agent_nodes SET parent_id = (SELECT pm.dst FROM node_map nm JOIN src.agent_nodes s ON s.id = nm.src
    JOIN node_map pm ON pm.src = s.parent_id WHERE nm.dst = agent_nodes.id)
  WHERE parent_id IS NULL AND id IN (SELECT dst FROM node_map);

DROP TABLE evaluation_map;
DROP TABLE run_map;
DROP TABLE run_next;
DROP TABLE node_map;
)sql";

int schema_of(sqlite::Database& db, const std::string& schema) {
  auto s = db.prepare("SELECT value FROM " + schema + ".meta WHERE key = 'schema_version'");
  if (!s.step()) return 0;
  return std::stoi(s.text_at(0));
}

// Another store attached as `src` while this lives, after checking that its schema is this
// kforge's (a store of another schema has other columns: a copy would misplace them).
class AttachedSource {
 public:
  AttachedSource(sqlite::Database& db, const std::filesystem::path& source) : db_(db) {
    db_.prepare("ATTACH DATABASE ?1 AS src").bind(1, source.string()).run();
    const int theirs = schema_of(db_, "src");
    if (theirs != kSchemaVersion) {
      detach();
      throw Error(source.string() + ": a store of schema " + std::to_string(theirs) + ", this kforge's is " +
                  std::to_string(kSchemaVersion) +
                  (theirs < kSchemaVersion ? "; open it once with this kforge (kforge runs --db " + source.string() +
                                                 ") to bring it up to date"
                                           : "; use the newer kforge that wrote it"));
    }
  }
  ~AttachedSource() { detach(); }
  AttachedSource(const AttachedSource&) = delete;
  AttachedSource& operator=(const AttachedSource&) = delete;

 private:
  void detach() noexcept {
    try {
      db_.exec("DETACH DATABASE src");
    } catch (...) {
    }
  }
  sqlite::Database& db_;
};

}  // namespace

Store::MergeSummary Store::merge_from(const std::filesystem::path& source) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(source, ec)) throw Error(source.string() + ": no such store");
  if (std::filesystem::equivalent(source, path(), ec)) throw UsageError(source.string() + " is the store merged into");
  auto count = [&](const char* table) {
    auto s = db_.prepare(std::string("SELECT count(*) FROM main.") + table);
    return s.step() ? s.int_at(0) : 0;
  };
  MergeSummary before{count("evaluations"), count("model_calls"), count("agent_nodes"), count("runs")};
  AttachedSource attached(db_, source);
  // The same problem under another text is another suite: its results would mix with these.
  auto clash = db_.prepare(
      "SELECT 'level' || s.level || '/' || s.problem_id || '_' || s.name FROM src.problems s WHERE EXISTS (SELECT 1 FROM main.problems t WHERE t.level = s.level AND "
      "t.problem_id = s.problem_id AND t.name = s.name) AND NOT EXISTS (SELECT 1 FROM main.problems t WHERE "
      "t.hash = s.hash) LIMIT 3");
  std::string clashes;
  while (clash.step()) clashes += (clashes.empty() ? "" : ", ") + clash.text_at(0);
  if (!clashes.empty())
    throw Error(source.string() + ": holds problems of the same name as this store's with another text (" + clashes +
                "): results of another suite; nothing merged");
  sqlite::Transaction tx(db_);
  db_.exec(kMergeSql);
  tx.commit();
  MergeSummary after{count("evaluations"), count("model_calls"), count("agent_nodes"), count("runs")};
  return {after.evaluations - before.evaluations, after.model_calls - before.model_calls,
          after.agent_nodes - before.agent_nodes, after.runs - before.runs};
}

int64_t Store::copy_baselines_from(const std::filesystem::path& source) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(source, ec)) throw Error(source.string() + ": no such store");
  AttachedSource attached(db_, source);
  sqlite::Transaction tx(db_);
  db_.exec(R"sql(
INSERT OR IGNORE INTO main.problems SELECT * FROM src.problems WHERE hash IN (SELECT problem_hash FROM src.baselines);
INSERT OR IGNORE INTO main.baselines SELECT * FROM src.baselines;
)sql");
  tx.commit();
  auto s = db_.prepare("SELECT count(*) FROM main.baselines");
  return s.step() ? s.int_at(0) : 0;
}

}  // namespace kforge
