// The store's schema and its migrations. A migration runs inside one transaction and bumps
// meta.schema_version, so a file is always at exactly one version.
#include "common/errors.hpp"
#include "store/store.hpp"

namespace kforge {
namespace {

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE problems (
  hash       TEXT PRIMARY KEY,          -- sha256 of the source
  level      INTEGER NOT NULL,
  problem_id INTEGER NOT NULL,
  name       TEXT NOT NULL,
  path       TEXT NOT NULL,             -- where it was first seen
  source     TEXT NOT NULL,
  first_seen TEXT NOT NULL
);
CREATE TABLE candidates (
  hash       TEXT PRIMARY KEY,          -- sha256 of the source
  path       TEXT NOT NULL,             -- where it was first seen
  source     TEXT NOT NULL,
  first_seen TEXT NOT NULL
);
CREATE TABLE evaluations (
  id              INTEGER PRIMARY KEY,
  eval_key        TEXT NOT NULL,        -- sha256(problem, candidate, settings, device identity)
  problem_hash    TEXT NOT NULL REFERENCES problems(hash),
  candidate_hash  TEXT NOT NULL REFERENCES candidates(hash),
  device          TEXT NOT NULL,
  device_name     TEXT NOT NULL,
  torch_version   TEXT NOT NULL,
  settings        TEXT NOT NULL,        -- JSON
  verdict         TEXT NOT NULL,
  rule            TEXT NOT NULL,
  message         TEXT NOT NULL,
  trials_passed   INTEGER NOT NULL,
  trials_total    INTEGER NOT NULL,
  max_abs_error   REAL,
  max_rel_error   REAL,
  ref_ms          REAL,                 -- median [ms]
  cand_ms         REAL,                 -- median [ms]
  speedup         REAL,
  speedup_ci_low  REAL,
  speedup_ci_high REAL,
  wall_s          REAL NOT NULL,         -- the job as kforge saw it [s]
  load_s          REAL NOT NULL,         -- worker phases [s]
  correctness_s   REAL NOT NULL,
  timing_s        REAL NOT NULL,
  created_at      TEXT NOT NULL
);
CREATE INDEX evaluations_by_key ON evaluations(eval_key, id);
CREATE TABLE samples (
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
  side          TEXT NOT NULL CHECK (side IN ('ref', 'cand')),
  idx           INTEGER NOT NULL,       -- order taken; ref and cand samples with one idx are a pair
  event_ms      REAL NOT NULL,          -- CUDA events on the current stream (host clock on CPU)
  host_ms       REAL,                   -- host clock with a device-wide synchronize
  PRIMARY KEY (evaluation_id, side, idx)
) WITHOUT ROWID;
CREATE TABLE runs (
  id         INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  command    TEXT NOT NULL,
  device     TEXT NOT NULL
);
CREATE TABLE run_evaluations (
  run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position       INTEGER NOT NULL,
  evaluation_id  INTEGER NOT NULL REFERENCES evaluations(id),
  problem_name   TEXT NOT NULL,         -- names as this run saw them
  candidate_name TEXT NOT NULL,
  level          INTEGER NOT NULL,
  problem_id     INTEGER NOT NULL,
  reused         INTEGER NOT NULL,
  PRIMARY KEY (run_id, position)
);
)sql";

int read_version(sqlite::Database& db) {
  auto has_meta = db.prepare("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'");
  has_meta.step();
  if (has_meta.int_at(0) == 0) {
    auto tables = db.prepare("SELECT count(*) FROM sqlite_master");
    tables.step();
    if (tables.int_at(0) != 0)
      throw Error(db.path().string() + ": holds tables but is not a kforge database; left untouched");
    return 0;
  }
  auto version = db.prepare("SELECT value FROM meta WHERE key='schema_version'");
  if (!version.step()) throw Error(db.path().string() + ": kforge database without a schema version");
  return std::stoi(version.text_at(0));
}

}  // namespace

void migrate(sqlite::Database& db) {
  int version = read_version(db);
  if (version > kSchemaVersion)
    throw Error(db.path().string() + ": written by a newer kforge (schema " + std::to_string(version) +
                ", this build knows " + std::to_string(kSchemaVersion) + "); left untouched");
  if (version == kSchemaVersion) return;
  sqlite::Transaction tx(db);
  version = read_version(db);  // again, under the write lock: another kforge may have migrated
  if (version < 1) {
    db.exec(kSchemaV1);
    db.exec("INSERT INTO meta(key, value) VALUES ('schema_version', '1')");
  }
  if (version < 2) {
    // Native candidates' builds: the full compiler log and per-kernel resources (ptxas -v).
    db.exec(R"sql(
CREATE TABLE builds (
  build_key      TEXT PRIMARY KEY,      -- the build cache's key
  format         TEXT NOT NULL,         -- cpp | cuda
  candidate_hash TEXT NOT NULL,
  ok             INTEGER NOT NULL,
  seconds        REAL NOT NULL,         -- compile time when it was built [s]
  diagnostics    TEXT NOT NULL,         -- condensed: what the candidate's author is shown
  log            TEXT NOT NULL,         -- the compiler's whole output
  kernels        TEXT NOT NULL,         -- JSON: registers, shared memory, spills per kernel
  created_at     TEXT NOT NULL
);
UPDATE meta SET value = '2' WHERE key = 'schema_version';
)sql");
  }
  if (version < 3) {
    // What each problem computes (kforge problems info), per torch version and precision.
    db.exec(R"sql(
CREATE TABLE problem_metadata (
  problem_hash  TEXT NOT NULL REFERENCES problems(hash),
  torch_version TEXT NOT NULL,
  precision     TEXT NOT NULL,
  flops         INTEGER,                -- torch.utils.flop_counter's count of one forward
  input_bytes   INTEGER,
  param_count   INTEGER,
  param_bytes   INTEGER,                -- parameters and buffers
  output_bytes  INTEGER,
  outputs       TEXT NOT NULL,          -- JSON: [{shape, dtype}]
  error         TEXT,                   -- why it could not be derived (then the figures are NULL)
  computed_at   TEXT NOT NULL,
  PRIMARY KEY (problem_hash, torch_version, precision)
);
UPDATE meta SET value = '3' WHERE key = 'schema_version';
)sql");
  }
  if (version < 4) {
    // The reference's own times, eager and compiled (kforge baseline), per device and torch.
    db.exec(R"sql(
CREATE TABLE baselines (
  problem_hash  TEXT NOT NULL REFERENCES problems(hash),
  mode          TEXT NOT NULL,          -- eager | compile | max-autotune
  device_name   TEXT NOT NULL,          -- "NVIDIA H200", or "cpu"
  torch_version TEXT NOT NULL,
  mean_ms REAL, std_ms REAL, min_ms REAL, max_ms REAL, median_ms REAL,
  num_trials    INTEGER NOT NULL,
  error         TEXT,                   -- why it could not be timed (then the times are NULL)
  measured_at   TEXT NOT NULL,
  PRIMARY KEY (problem_hash, mode, device_name, torch_version)
);
UPDATE meta SET value = '4' WHERE key = 'schema_version';
)sql");
  }
  if (version < 5) {
    // The device's peak rates (kforge problems info --sol), measured once per device and torch.
    db.exec(R"sql(
CREATE TABLE device_peaks (
  device_name      TEXT NOT NULL,         -- "NVIDIA H200", or "cpu"
  torch_version    TEXT NOT NULL,
  copy_bytes_per_s REAL NOT NULL,         -- device-to-device copy, bytes read + written
  matmul_flops     TEXT NOT NULL,         -- JSON: {"fp32": FLOP/s, "bf16": ..., "fp16": ...}
  measured_at      TEXT NOT NULL,
  PRIMARY KEY (device_name, torch_version)
);
UPDATE meta SET value = '5' WHERE key = 'schema_version';
)sql");
  }
  if (version < 6) {
    // The convolutions' share of a problem's FLOPs: PyTorch lets cuDNN run fp32 convolutions on
    // TF32 tensor cores by default, so the SOL times them at the TF32 rate. Rows derived before
    // have NULL and are derived again.
    db.exec(R"sql(
ALTER TABLE problem_metadata ADD COLUMN conv_flops INTEGER;
UPDATE meta SET value = '6' WHERE key = 'schema_version';
)sql");
  }
  if (version < 7) {
    // Every model call of kforge generate: what was sent, what came back, what it cost, and the
    // candidate taken from it (if any). A sample with an `ok` call is not generated again.
    db.exec(R"sql(
CREATE TABLE model_calls (
  id             INTEGER PRIMARY KEY,
  model          TEXT NOT NULL,          -- kforge.toml's name
  provider_model TEXT NOT NULL,          -- the provider's own name
  problem_hash   TEXT NOT NULL REFERENCES problems(hash),
  format         TEXT NOT NULL,          -- cuda | kernelbench | triton | cpp
  sample         INTEGER NOT NULL,
  prompt_hash    TEXT NOT NULL,          -- sha256 of the system and user messages
  prompt         TEXT NOT NULL,          -- JSON: {"system", "user"}
  answer         TEXT NOT NULL,          -- the raw text, also when no code was found or the call failed
  outcome        TEXT NOT NULL,          -- ok | no_code | wrong_format | an error kind (llm/provider.hpp)
  message        TEXT,
  input_tokens   INTEGER NOT NULL,
  output_tokens  INTEGER NOT NULL,
  cost_usd       REAL NOT NULL,
  latency_s      REAL NOT NULL,
  attempts       INTEGER NOT NULL,
  http_status    INTEGER NOT NULL,
  candidate_hash TEXT REFERENCES candidates(hash),
  candidate_path TEXT,                   -- where it was written
  created_at     TEXT NOT NULL
);
CREATE INDEX model_calls_sample ON model_calls(model, problem_hash, format, sample);
UPDATE meta SET value = '7' WHERE key = 'schema_version';
)sql");
  }
  if (version < 8) {
    // The device's properties beside its rates (SMs, L2, memory), for prompts. NULL before.
    db.exec(R"sql(
ALTER TABLE device_peaks ADD COLUMN properties TEXT;
UPDATE meta SET value = '8' WHERE key = 'schema_version';
)sql");
  }
  if (version < 9) {
    // kforge agent: a run's options (to resume it), and every attempt as a node of its search tree.
    db.exec(R"sql(
CREATE TABLE agent_runs (
  run_id  INTEGER PRIMARY KEY REFERENCES runs(id),
  options TEXT NOT NULL                  -- JSON: problems, policy, models, format, budgets
);
CREATE TABLE agent_nodes (
  id             INTEGER PRIMARY KEY,
  run_id         INTEGER NOT NULL REFERENCES runs(id),
  problem_hash   TEXT NOT NULL REFERENCES problems(hash),
  parent_id      INTEGER REFERENCES agent_nodes(id),
  round          INTEGER NOT NULL,
  role           TEXT NOT NULL,          -- coder | refiner | debugger
  direction      TEXT NOT NULL,          -- what the policy asked for
  model          TEXT NOT NULL,          -- kforge.toml's name
  prompt         TEXT NOT NULL,          -- JSON: {"system", "user"}
  answer         TEXT NOT NULL,
  outcome        TEXT NOT NULL,          -- ok | no_code | wrong_format | a call's error kind
  candidate_hash TEXT REFERENCES candidates(hash),
  candidate_path TEXT,
  evaluation_id  INTEGER REFERENCES evaluations(id),  -- NULL until evaluated
  verdict        TEXT,                   -- the evaluation's, or the outcome's when nothing ran
  speedup        REAL,
  kernel_win     INTEGER NOT NULL DEFAULT 0,  -- correct, and most GPU time in its own kernels
  digest         TEXT,                   -- the feedback the next prompt quotes
  input_tokens   INTEGER NOT NULL,
  output_tokens  INTEGER NOT NULL,
  cost_usd       REAL NOT NULL,
  latency_s      REAL NOT NULL,
  created_at     TEXT NOT NULL
);
CREATE INDEX agent_nodes_run ON agent_nodes(run_id, problem_hash);
UPDATE meta SET value = '9' WHERE key = 'schema_version';
)sql");
  }
  if (version < 10) {
    // What a run was asked to judge and never evaluated: a sample whose generation gave no
    // candidate, a candidate file that could not be read. fast_p counts them as failures.
    db.exec(R"sql(
CREATE TABLE run_gaps (
  run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  problem_name   TEXT NOT NULL,
  candidate_name TEXT NOT NULL,          -- the file, or "<model> sample <k>" for a generation
  level          INTEGER NOT NULL,
  problem_id     INTEGER NOT NULL,
  outcome        TEXT NOT NULL,          -- load_error, or the generation's (no_code, auth, ...)
  message        TEXT NOT NULL
);
UPDATE meta SET value = '10' WHERE key = 'schema_version';
)sql");
  }
  if (version < 11) {
    // Named runs (`--name`), and what a run's model calls cost: every call whose candidate the
    // run evaluated, made by this invocation or an earlier one it resumed (NULL: no model).
    db.exec(R"sql(
ALTER TABLE runs ADD COLUMN name TEXT;
CREATE UNIQUE INDEX runs_by_name ON runs(name) WHERE name IS NOT NULL;
ALTER TABLE runs ADD COLUMN model_calls INTEGER;
ALTER TABLE runs ADD COLUMN input_tokens INTEGER;
ALTER TABLE runs ADD COLUMN output_tokens INTEGER;
ALTER TABLE runs ADD COLUMN cost_usd REAL;
UPDATE meta SET value = '11' WHERE key = 'schema_version';
)sql");
  }
  if (version < 12) {
    // What besides the prompt shaped a call's answer: resuming a batch calls again where it changed.
    db.exec(R"sql(
ALTER TABLE model_calls ADD COLUMN settings TEXT;
UPDATE meta SET value = '12' WHERE key = 'schema_version';
)sql");
  }
  if (version < 13) {
    // The parts a merged run was made of (kforge merge: the shards of one named study), each
    // with what its model calls cost, so merging a shard again adds nothing to the run's cost.
    db.exec(R"sql(
CREATE TABLE run_parts (
  run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  started_at    TEXT NOT NULL,
  command       TEXT NOT NULL,
  device        TEXT NOT NULL,
  model_calls   INTEGER,
  input_tokens  INTEGER,
  output_tokens INTEGER,
  cost_usd      REAL,
  PRIMARY KEY (run_id, started_at, command, device)
);
-- A run's row of an evaluation, found at once (kforge merge asks for each it copies).
CREATE INDEX run_evaluations_by_evaluation ON run_evaluations(run_id, evaluation_id);
UPDATE meta SET value = '13' WHERE key = 'schema_version';
)sql");
  }
  if (version < 14) {
    // A training step's convolution backward is counted by kforge's own formula now (torch
    // 2.11's overcounts a grouped convolution's weight gradient `groups` times, and the
    // convolutions' share left the backward out, so it was timed at the fp32 rate, not TF32's):
    // every row with convolutions is derived again (a NULL share means so: store.cpp).
    db.exec(R"sql(
UPDATE problem_metadata SET conv_flops = NULL WHERE conv_flops > 0;
UPDATE meta SET value = '14' WHERE key = 'schema_version';
)sql");
  }
  if (version < 15) {
    // cuDNN runs fp32 recurrent layers (nn.LSTM, nn.GRU, nn.RNN) on TF32 tensor cores by
    // PyTorch's default too, as it does convolutions: the share timed at the TF32 rate is theirs
    // together now, renamed for it. Every row is derived again (the recurrent part was not kept).
    db.exec(R"sql(
ALTER TABLE problem_metadata RENAME COLUMN conv_flops TO tf32_flops;
UPDATE problem_metadata SET tf32_flops = NULL;
UPDATE meta SET value = '15' WHERE key = 'schema_version';
)sql");
  }
  if (version < 16) {
    // torch's FLOP counter has no formula for grouped GEMMs (torch.nn.functional.grouped_mm):
    // kforge_flops.py counts them now. A problem that calls one was derived with that work left
    // out (level5/4 at 0.13 GFLOP, level5/16 at none: their SOL taken for memory-bound), so its
    // rows are dropped and derived again when asked; the rest are untouched.
    db.exec(R"sql(
DELETE FROM problem_metadata WHERE problem_hash IN (SELECT hash FROM problems WHERE source LIKE '%grouped_mm%');
UPDATE meta SET value = '16' WHERE key = 'schema_version';
)sql");
  }
  if (version < 17) {
    // The reference timed in two processes taking turns (session 49): which one timed each
    // reference sample, so the interval's widening by their distance can be computed again from
    // what is stored (NULL: one process, or a result stored before).
    db.exec(R"sql(
ALTER TABLE samples ADD COLUMN process INTEGER;
UPDATE meta SET value = '17' WHERE key = 'schema_version';
)sql");
  }
  if (version < 18) {
    // The allowance a side the twins' distance gave each interval (session 51): where a problem's
    // processes drew speeds apart on a device, its later evaluations there are widened as far,
    // since the candidate's one process may draw where both twins agree (NULL: one process, or a
    // result stored before). Indexed for that lookup, by problem and device.
    db.exec(R"sql(
ALTER TABLE evaluations ADD COLUMN process_allowance REAL;
CREATE INDEX evaluations_drawn ON evaluations(problem_hash, device_name) WHERE process_allowance IS NOT NULL;
UPDATE meta SET value = '18' WHERE key = 'schema_version';
)sql");
  }
  // Later migrations go here: `if (version < 19) { ...; UPDATE meta ... }`.
  tx.commit();
}

}  // namespace kforge
