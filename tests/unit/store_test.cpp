#include "store/store.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge {
namespace {

using testing::TempDir;

Problem sample_problem() {
  Problem p;
  p.level = 1;
  p.id = 19;
  p.name = "ReLU";
  p.path = "/suite/level1/19_ReLU.py";
  p.source = "class Model: ...";
  p.hash = "p-hash";
  return p;
}

Candidate sample_candidate() {
  Candidate c;
  c.path = "/c/relu.py";
  c.display_name = "relu.py";
  c.source = "class ModelNew: ...";
  c.hash = "c-hash";
  return c;
}

EvaluationRecord sample_record(const std::string& key) {
  EvaluationRecord r;
  r.eval_key = key;
  r.problem_hash = "p-hash";
  r.candidate_hash = "c-hash";
  r.problem_name = "level1/19_ReLU";
  r.candidate_name = "relu.py";
  r.device = "cuda:0";
  r.device_name = "NVIDIA H200";
  r.torch_version = "2.11.0";
  r.settings = {{"precision", "fp32"}};
  r.verdict = Verdict::correct;
  r.message = "5/5 trials passed";
  r.trials_passed = r.trials_total = 5;
  r.max_abs_error = 1e-6;
  r.ref_ms = 2.0;
  r.cand_ms = 1.0;
  r.speedup = 2.0;
  r.speedup_ci = stats::Interval{1.9, 2.1};
  r.ref_samples_ms = {2.0, 2.1};
  r.cand_samples_ms = {1.0, 1.1};
  r.ref_host_ms = {2.2, 2.3};
  r.cand_host_ms = {1.2, 1.3};
  r.ref_process = {0, 1};
  r.load_s = 0.5;
  r.correctness_s = 0.25;
  r.timing_s = 1.5;
  return r;
}

TEST(Store, CreatesSchemaVersion1) {
  TempDir dir;
  Store store(dir.file("k.db"));
  EXPECT_EQ(store.schema_version(), kSchemaVersion);
  Store again(dir.file("k.db"));  // reopening migrates nothing and loses nothing
  EXPECT_EQ(again.schema_version(), kSchemaVersion);
}

// docs/architecture.md names the schema version and every migration up to it.
TEST(Store, TheArchitectureDocNamesTheSchemaVersion) {
  const std::string doc = read_file(testing::source_path("docs/architecture.md"));
  EXPECT_NE(doc.find("`meta.schema_version` is " + std::to_string(kSchemaVersion) + ";"), std::string::npos)
      << "docs/architecture.md gives another schema version than kSchemaVersion (" << kSchemaVersion << ")";
  const std::string last = std::to_string(kSchemaVersion - 1) + " to " + std::to_string(kSchemaVersion) + " ";
  EXPECT_NE(doc.find(last), std::string::npos) << "docs/architecture.md does not say what migration " << last << "added";
}

TEST(Store, StoresAndFindsEvaluationsWithSamples) {
  TempDir dir;
  Store store(dir.file("k.db"));
  store.put_problem(sample_problem());
  store.put_problem(sample_problem());  // idempotent
  store.put_candidate(sample_candidate());
  EXPECT_FALSE(store.find_evaluation("key-1"));
  auto record = sample_record("key-1");
  int64_t id = store.insert_evaluation(record);
  auto found = store.find_evaluation("key-1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, id);
  EXPECT_EQ(found->verdict, Verdict::correct);
  EXPECT_EQ(found->speedup, 2.0);
  ASSERT_TRUE(found->speedup_ci);
  EXPECT_EQ(found->speedup_ci->low, 1.9);
  EXPECT_EQ(found->ref_samples_ms, record.ref_samples_ms);
  EXPECT_EQ(found->cand_host_ms, record.cand_host_ms);
  EXPECT_EQ(found->ref_process, record.ref_process);
  EXPECT_EQ(found->level, 1);
  EXPECT_EQ(found->settings["precision"], "fp32");
  EXPECT_EQ(found->load_s, 0.5);
  EXPECT_EQ(found->correctness_s, 0.25);
  EXPECT_EQ(found->timing_s, 1.5);

  // A newer evaluation under the same key (--force) wins; the old one stays stored.
  auto newer = sample_record("key-1");
  newer.speedup = 3.0;
  int64_t id2 = store.insert_evaluation(newer);
  EXPECT_GT(id2, id);
  EXPECT_EQ(store.find_evaluation("key-1")->speedup, 3.0);
}

TEST(Store, RunsKeepTheirOrderAndNames) {
  TempDir dir;
  Store store(dir.file("k.db"));
  store.put_problem(sample_problem());
  store.put_candidate(sample_candidate());
  auto r = sample_record("k");
  r.id = store.insert_evaluation(r);
  int64_t run = store.begin_run("kforge eval x", "cuda");
  r.candidate_name = "first.py";
  store.add_to_run(run, r);
  r.candidate_name = "second.py";
  r.reused = true;
  store.add_to_run(run, r);
  auto records = store.run_evaluations(run);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].candidate_name, "first.py");
  EXPECT_FALSE(records[0].reused);
  EXPECT_EQ(records[1].candidate_name, "second.py");
  EXPECT_TRUE(records[1].reused);
  EXPECT_EQ(store.latest_run(), run);
  EXPECT_EQ(store.runs().size(), 1u);
  EXPECT_EQ(store.runs()[0].evaluations, 2);
}

// A name is one run's; the same command line again goes on with that run (a shard run again after
// preemption), and what it meets again is not added twice.
TEST(Store, TheSameCommandGoesOnWithItsNamedRun) {
  TempDir dir;
  Store store(dir.file("k.db"));
  store.put_problem(sample_problem());
  store.put_candidate(sample_candidate());
  auto r = sample_record("k");
  r.id = store.insert_evaluation(r);
  bool continued = true;
  const int64_t run = store.begin_run("kforge eval runs/x --name study", "cpu", "study", &continued);
  EXPECT_FALSE(continued);
  store.add_to_run(run, r);
  store.add_gap(run, {"level1/2_X", "m sample 0", 1, 2, "no_code", "no code block"});

  EXPECT_EQ(store.begin_run("kforge eval runs/x --name study", "cpu", "study", &continued), run);
  EXPECT_TRUE(continued);
  store.add_to_run(run, r);
  store.add_gap(run, {"level1/2_X", "m sample 0", 1, 2, "no_code", "no code block"});
  EXPECT_EQ(store.run_evaluations(run).size(), 1u);
  EXPECT_EQ(store.run_gaps(run).size(), 1u);
  EXPECT_EQ(store.runs().size(), 1u);

  EXPECT_EQ(store.name_taken_by_another_command("study", "kforge eval runs/y --name study"), run);
  EXPECT_FALSE(store.name_taken_by_another_command("study", "kforge eval runs/x --name study"));
  try {
    store.begin_run("kforge eval runs/y --name study", "cpu", "study");
    ADD_FAILURE() << "another command took the name";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("started by another command line"), std::string::npos) << e.what();
  }
}

TEST(Store, ARunKeepsWhatItNeverEvaluatedInOrder) {
  TempDir dir;
  Store store(dir.file("k.db"));
  int64_t run = store.begin_run("kforge run", "cpu");
  store.add_gap(run, {"level1/2_X", "m sample 0", 1, 2, "no_code", "no code block"});
  store.add_gap(run, {"level1/3_Y", "fifo.py", 1, 3, "load_error", "a FIFO, not a source file: not read"});
  auto gaps = store.run_gaps(run);
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(gaps[0].outcome, "no_code");
  EXPECT_EQ(gaps[0].problem_id, 2);
  EXPECT_EQ(gaps[1].candidate_name, "fifo.py");
  EXPECT_TRUE(store.run_gaps(run + 1).empty());
}

// What `report --html` reads beside the records: a candidate's source, and the model whose answer
// each candidate came from (a generate call's or an agent attempt's), by its hash.
TEST(Store, CandidateSourcesAndTheirModels) {
  TempDir dir;
  Store store(dir.file("k.db"));
  store.put_problem(sample_problem());
  store.put_candidate(sample_candidate());
  EXPECT_EQ(store.candidate_source("c-hash"), "class ModelNew: ...");
  EXPECT_FALSE(store.candidate_source("no-such-hash"));
  EXPECT_TRUE(store.candidate_models().empty());

  ModelCall call;
  call.model = "gpt";
  call.problem_hash = "p-hash";
  call.format = "kernelbench";
  call.outcome = "ok";
  call.candidate_hash = "c-hash";
  store.insert_model_call(call);
  call.candidate_hash.reset();  // a call without a candidate names none
  call.outcome = "no_code";
  store.insert_model_call(call);
  int64_t run = store.begin_run("kforge agent", "cpu");
  AgentNode node;
  node.run_id = run;
  node.problem_hash = "p-hash";
  node.role = "coder";
  node.model = "claude";
  node.outcome = "ok";
  node.candidate_hash = "c-hash";  // the same source from another model: theirs jointly
  store.insert_agent_node(node);
  Candidate other = sample_candidate();
  other.hash = "other-hash";
  store.put_candidate(other);
  node.candidate_hash = "other-hash";
  store.insert_agent_node(node);
  const auto models = store.candidate_models();
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models.at("c-hash"), "claude, gpt");
  EXPECT_EQ(models.at("other-hash"), "claude");
}

std::string bytes_of(const std::string& path) { return read_file(path); }

TEST(Store, CorruptFileIsRefusedAndLeftUntouched) {
  TempDir dir;
  std::string path = dir.write("k.db", std::string(8192, 'x'));
  std::string before = bytes_of(path);
  try {
    Store store(path);
    FAIL() << "opened a corrupt file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a kforge database or is damaged"), std::string::npos) << e.what();
  }
  EXPECT_EQ(bytes_of(path), before);
}

TEST(Store, ForeignDatabaseIsRefused) {
  TempDir dir;
  std::string path = dir.file("other.db");
  {
    sqlite::Database db(path);
    db.exec("CREATE TABLE things(x)");
  }
  try {
    Store store(path);
    FAIL() << "opened a foreign database";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a kforge database"), std::string::npos) << e.what();
  }
  sqlite::Database db(path);
  auto s = db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'meta'");
  s.step();
  EXPECT_EQ(s.int_at(0), 0);
}

TEST(Store, NewerSchemaIsRefused) {
  TempDir dir;
  std::string path = dir.file("k.db");
  { Store store(path); }
  {
    sqlite::Database db(path);
    db.exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  }
  try {
    Store store(path);
    FAIL() << "opened a newer schema";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("newer kforge"), std::string::npos) << e.what();
  }
}

TEST(Store, LockedDatabaseFailsClearlyAndKeepsData) {
  TempDir dir;
  std::string path = dir.file("k.db");
  Store store(path);
  store.put_problem(sample_problem());
  store.put_candidate(sample_candidate());
  store.insert_evaluation(sample_record("kept"));
  sqlite::Database other(path, 0);
  other.exec("BEGIN EXCLUSIVE");
  try {
    store.insert_evaluation(sample_record("blocked"));
    FAIL() << "wrote through an exclusive lock";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("another process holds the database"), std::string::npos) << e.what();
  }
  other.exec("ROLLBACK");
  EXPECT_TRUE(store.find_evaluation("kept"));
  EXPECT_FALSE(store.find_evaluation("blocked"));
}

TEST(Store, ProblemMetadataRoundTripsPerTorchAndPrecision) {
  TempDir dir;
  Store store(dir.file("k.db"));
  store.put_problem(sample_problem());
  ProblemMetadata m;
  m.problem_hash = sample_problem().hash;
  m.torch_version = "2.11.0";
  m.precision = "fp32";
  m.flops = int64_t{1} << 40;  // past 32 bits
  m.tf32_flops = int64_t{1} << 39;
  m.input_bytes = 1024;
  m.param_count = 0;
  m.param_bytes = 0;
  m.output_bytes = 512;
  m.outputs_json = R"([{"shape":[16,8],"dtype":"float32"}])";
  store.put_problem_metadata(m);
  ProblemMetadata broken = m;
  broken.precision = "bf16";
  broken.flops = broken.input_bytes = broken.param_count = broken.param_bytes = broken.output_bytes = std::nullopt;
  broken.outputs_json = "[]";
  broken.error = "NotImplementedError: nonzero on meta";
  store.put_problem_metadata(broken);

  auto got = store.find_problem_metadata(m.problem_hash, "2.11.0", "fp32");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->flops, int64_t{1} << 40);
  EXPECT_EQ(got->tf32_flops, int64_t{1} << 39);
  EXPECT_EQ(got->output_bytes, 512);
  EXPECT_EQ(got->outputs_json, m.outputs_json);
  EXPECT_FALSE(got->error);
  auto failed = store.find_problem_metadata(m.problem_hash, "2.11.0", "bf16");
  ASSERT_TRUE(failed);
  EXPECT_FALSE(failed->flops);
  EXPECT_EQ(failed->error, broken.error);
  EXPECT_FALSE(store.find_problem_metadata(m.problem_hash, "2.12.0", "fp32"));  // another torch: derive again
}

// The sample problem's fp32 figures under torch 2.11.0, without the TF32 share.
ProblemMetadata sample_metadata() {
  ProblemMetadata m;
  m.problem_hash = sample_problem().hash;
  m.torch_version = "2.11.0";
  m.precision = "fp32";
  m.flops = 1000;
  m.input_bytes = m.param_count = m.param_bytes = m.output_bytes = 0;
  return m;
}

// A row derived before the convolutions' share was recorded (schema 5) is derived again.
TEST(Store, ProblemMetadataWithoutTheConvolutionShareIsDerivedAgain) {
  TempDir dir;
  Store store(dir.file("k.db"));
  store.put_problem(sample_problem());
  ProblemMetadata m = sample_metadata();
  store.put_problem_metadata(m);  // tf32_flops unset: as a schema-5 row reads
  EXPECT_FALSE(store.find_problem_metadata(m.problem_hash, "2.11.0", "fp32"));
  m.tf32_flops = 0;
  store.put_problem_metadata(m);
  EXPECT_TRUE(store.find_problem_metadata(m.problem_hash, "2.11.0", "fp32"));
}

// What schema 18 added, taken away again: a store as the schemas before it left one.
void drop_schema_18(sqlite::Database& db) {
  db.exec("DROP INDEX evaluations_drawn");
  db.exec("ALTER TABLE evaluations DROP COLUMN process_allowance");
}

// A schema-14 store's convolution share becomes tf32_flops, emptied so that each row is derived
// again with its recurrent layers counted (schema 15).
TEST(Store, ASchema14ConvolutionShareIsDerivedAgain) {
  TempDir dir;
  {
    Store store(dir.file("k.db"));
    store.put_problem(sample_problem());
    ProblemMetadata m = sample_metadata();
    m.tf32_flops = 400;
    store.put_problem_metadata(m);
  }
  {  // back to schema 14 as it stood: the column's old name, no sample processes, the old version
    sqlite::Database db(dir.file("k.db"));
    db.exec("ALTER TABLE problem_metadata RENAME COLUMN tf32_flops TO conv_flops");
    db.exec("ALTER TABLE samples DROP COLUMN process");
    drop_schema_18(db);
    db.exec("UPDATE meta SET value = '14' WHERE key = 'schema_version'");
  }
  Store store(dir.file("k.db"));
  EXPECT_EQ(store.schema_version(), kSchemaVersion);
  EXPECT_FALSE(store.find_problem_metadata(sample_problem().hash, "2.11.0", "fp32"));
}

// Schema 16: a problem that calls a grouped GEMM was derived without its FLOPs (torch's counter
// has no formula for it), so its metadata goes; another problem's stays.
TEST(Store, ASchema15GroupedGemmRowIsDerivedAgain) {
  TempDir dir;
  Problem grouped = sample_problem();
  grouped.hash = "grouped-hash";
  grouped.name = "Grouped_GEMM";
  grouped.source = "import torch.nn.functional as F\nclass Model: ... F.grouped_mm(x, w, offs=ends) ...";
  {
    Store store(dir.file("k.db"));
    for (const Problem& p : {sample_problem(), grouped}) {
      store.put_problem(p);
      ProblemMetadata m = sample_metadata();
      m.problem_hash = p.hash;
      m.tf32_flops = 400;
      store.put_problem_metadata(m);
    }
  }
  {  // back to schema 15 as it stood: no sample processes, the old version
    sqlite::Database db(dir.file("k.db"));
    db.exec("ALTER TABLE samples DROP COLUMN process");
    drop_schema_18(db);
    db.exec("UPDATE meta SET value = '15' WHERE key = 'schema_version'");
  }
  Store store(dir.file("k.db"));
  EXPECT_EQ(store.schema_version(), kSchemaVersion);
  EXPECT_FALSE(store.find_problem_metadata("grouped-hash", "2.11.0", "fp32"));
  EXPECT_TRUE(store.find_problem_metadata(sample_problem().hash, "2.11.0", "fp32"));
}

// sample_record(key) stored with `processes` as its reference samples' timing processes (empty: one).
void insert_timed_by(Store& store, const std::string& key, std::vector<int> processes) {
  store.put_problem(sample_problem());
  store.put_candidate(sample_candidate());
  auto record = sample_record(key);
  record.ref_process = std::move(processes);
  store.insert_evaluation(record);
}

// A store in `dir` holding key-1 timed by `processes`, then taken back to schema `version` as it
// stood: `undo` drops what the later schemas added. Opening it again migrates it.
void store_one_as_schema(const TempDir& dir, std::vector<int> processes, int version,
                         const std::function<void(sqlite::Database&)>& undo) {
  {
    Store store(dir.file("k.db"));
    insert_timed_by(store, "key-1", std::move(processes));
  }
  sqlite::Database db(dir.file("k.db"));
  undo(db);
  db.exec("UPDATE meta SET value = '" + std::to_string(version) + "' WHERE key = 'schema_version'");
}

// The reference's timing process of each sample: stored where every sample has one, none
// otherwise (one process, or a list that is not the samples').
TEST(Store, TheReferenceProcessOfEachSampleIsStoredWhereEverySampleHasOne) {
  TempDir dir;
  Store store(dir.file("k.db"));
  insert_timed_by(store, "one-process", {});
  insert_timed_by(store, "short-list", {1});
  insert_timed_by(store, "two-processes", {1, 0});
  EXPECT_TRUE(store.find_evaluation("one-process")->ref_process.empty());
  EXPECT_TRUE(store.find_evaluation("short-list")->ref_process.empty());
  EXPECT_EQ(store.find_evaluation("two-processes")->ref_process, (std::vector<int>{1, 0}));
}

// Schema 17: a schema-16 store's samples stay, with no reference process (one timed them).
TEST(Store, ASchema16StoreKeepsItsSamplesWithoutProcesses) {
  TempDir dir;
  store_one_as_schema(dir, {}, 16, [](sqlite::Database& db) {  // no process column
    db.exec("ALTER TABLE samples DROP COLUMN process");
    drop_schema_18(db);
  });
  Store store(dir.file("k.db"));
  EXPECT_EQ(store.schema_version(), kSchemaVersion);
  auto found = store.find_evaluation("key-1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->ref_samples_ms, sample_record("key-1").ref_samples_ms);
  EXPECT_TRUE(found->ref_process.empty());
  auto later = sample_record("key-2");
  store.insert_evaluation(later);
  EXPECT_EQ(store.find_evaluation("key-2")->ref_process, later.ref_process);
}

// The allowance the twins' distance gave each interval (schema 18): stored and read back, and the
// largest past the fixed allowance found per problem, device and torch version, none elsewhere.
TEST(Store, TheLargestProcessAllowanceIsFoundPerProblemDeviceAndTorch) {
  TempDir dir;
  Store store(dir.file("k.db"));
  store.put_problem(sample_problem());
  store.put_candidate(sample_candidate());
  const auto put = [&](const std::string& key, std::optional<double> allowance, const std::string& device,
                       const std::string& torch) {
    auto r = sample_record(key);
    r.process_allowance = allowance;
    r.device_name = device;
    r.torch_version = torch;
    store.insert_evaluation(r);
  };
  put("fixed", 0.005, "NVIDIA H200", "2.11.0");
  put("drawn", 0.12, "NVIDIA H200", "2.11.0");
  put("drawn-less", 0.08, "NVIDIA H200", "2.11.0");
  put("one-process", std::nullopt, "NVIDIA H200", "2.11.0");
  put("other-device", 0.3, "NVIDIA H100 80GB HBM3", "2.11.0");
  put("other-torch", 0.4, "NVIDIA H200", "2.12.0");
  EXPECT_EQ(store.find_evaluation("drawn")->process_allowance, 0.12);
  EXPECT_FALSE(store.find_evaluation("one-process")->process_allowance);
  EXPECT_EQ(store.largest_process_allowance("p-hash", "NVIDIA H200", "2.11.0", 0.005), 0.12);
  EXPECT_EQ(store.largest_process_allowance("p-hash", "NVIDIA H100 80GB HBM3", "2.11.0", 0.005), 0.3);
  EXPECT_FALSE(store.largest_process_allowance("p-hash", "NVIDIA H200", "2.11.0", 0.2));
  EXPECT_FALSE(store.largest_process_allowance("other-problem", "NVIDIA H200", "2.11.0", 0.005));
  EXPECT_FALSE(store.largest_process_allowance("p-hash", "cpu", "2.11.0", 0.005));
}

// Schema 18: a schema-17 store's results stay, with no allowance of their own; later ones keep theirs.
TEST(Store, ASchema17StoreGainsTheProcessAllowance) {
  TempDir dir;
  store_one_as_schema(dir, {0, 1}, 17, drop_schema_18);
  Store store(dir.file("k.db"));
  EXPECT_EQ(store.schema_version(), kSchemaVersion);
  auto found = store.find_evaluation("key-1");
  ASSERT_TRUE(found);
  EXPECT_FALSE(found->process_allowance);
  EXPECT_EQ(found->ref_process, (std::vector<int>{0, 1}));
  auto later = sample_record("key-2");
  later.process_allowance = 0.07;
  store.insert_evaluation(later);
  EXPECT_EQ(store.largest_process_allowance("p-hash", "NVIDIA H200", "2.11.0", 0.005), 0.07);
}

// The device's peak rates, per device name and torch version; a new measurement replaces the old.
TEST(Store, DevicePeaksRoundTripPerDeviceAndTorch) {
  TempDir dir;
  Store store(dir.file("k.db"));
  DevicePeaks p;
  p.device_name = "NVIDIA H200";
  p.torch_version = "2.11.0+cu130";
  p.copy_bytes_per_s = 4.3e12;
  p.matmul_flops_per_s = {{"fp32", 50e12}, {"bf16", 780e12}};
  store.put_device_peaks(p);
  auto got = store.find_device_peaks("NVIDIA H200", "2.11.0+cu130");
  ASSERT_TRUE(got);
  EXPECT_DOUBLE_EQ(got->copy_bytes_per_s, 4.3e12);
  EXPECT_EQ(got->matmul_flops_per_s, p.matmul_flops_per_s);
  EXPECT_FALSE(store.find_device_peaks("NVIDIA H200", "2.10.0"));
  EXPECT_FALSE(store.find_device_peaks("cpu", "2.11.0+cu130"));
  p.copy_bytes_per_s = 4.4e12;
  store.put_device_peaks(p);
  EXPECT_DOUBLE_EQ(store.find_device_peaks("NVIDIA H200", "2.11.0+cu130")->copy_bytes_per_s, 4.4e12);
}

// A GPU record without the TF32 rate or the device properties (an older kforge's) is incomplete,
// so problems info measures again rather than bound fp32 convolutions at the fp32 rate; a CPU
// record needs neither.
TEST(Store, DevicePeaksWithoutTf32OrPropertiesAreIncompleteOnAGpu) {
  TempDir dir;
  Store store(dir.file("k.db"));
  DevicePeaks old;
  old.device_name = "NVIDIA H200";
  old.torch_version = "2.11.0+cu130";
  old.copy_bytes_per_s = 4.1e12;
  old.matmul_flops_per_s = {{"fp32", 50.85e12}, {"bf16", 759e12}, {"fp16", 738e12}};
  store.put_device_peaks(old);
  auto got = store.find_device_peaks("NVIDIA H200", "2.11.0+cu130");
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->complete(true));
  EXPECT_TRUE(got->complete(false));
  got->matmul_flops_per_s["tf32"] = 400e12;
  EXPECT_FALSE(got->complete(true)) << "the device properties are still missing";
  got->properties = {{"sm_count", 132}, {"l2_bytes", 52428800}};
  EXPECT_TRUE(got->complete(true));
  store.put_device_peaks(*got);
  EXPECT_TRUE(store.find_device_peaks("NVIDIA H200", "2.11.0+cu130")->complete(true));
}

TEST(Store, BaselinesRoundTripPerModeDeviceAndTorch) {
  TempDir dir;
  Store store(dir.file("k.db"));
  store.put_problem(sample_problem());
  Baseline b;
  b.problem_hash = sample_problem().hash;
  b.mode = "compile";
  b.device_name = "NVIDIA H200";
  b.torch_version = "2.11.0";
  b.mean_ms = 1.5;
  b.std_ms = 0.01;
  b.min_ms = 1.48;
  b.max_ms = 1.6;
  b.median_ms = 1.49;
  b.num_trials = 100;
  store.put_baseline(b);
  b.median_ms = 1.47;  // measured again: the newest wins
  store.put_baseline(b);
  auto got = store.find_baseline(b.problem_hash, "compile", "NVIDIA H200", "2.11.0");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->median_ms, 1.47);
  EXPECT_EQ(got->num_trials, 100);
  EXPECT_FALSE(got->error);
  EXPECT_FALSE(store.find_baseline(b.problem_hash, "eager", "NVIDIA H200", "2.11.0"));
  EXPECT_FALSE(store.find_baseline(b.problem_hash, "compile", "NVIDIA H100", "2.11.0"));
}

}  // namespace
}  // namespace kforge
