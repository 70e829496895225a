// The CLI contract that needs no worker: usage errors exit 2 with a message, --help shows every
// default, environment problems exit 1 with a clear reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "pool/devices.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

TEST(CliUsage, NoCommandIsAUsageError) {
  auto r = run_kforge({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--help"), std::string::npos) << r.err;
}

TEST(CliUsage, UnknownFlagIsAUsageError) {
  auto r = run_kforge({"eval", "--no-such-flag"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CliUsage, EvalNeedsSomething) {
  auto r = run_kforge({"eval"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nothing to evaluate"), std::string::npos) << r.err;
}

TEST(CliUsage, BadDevice) {
  auto r = run_kforge({"eval", "--device", "tpu", "somewhere"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--device must be"), std::string::npos) << r.err;
}

TEST(CliUsage, BadPrecisionAndRanges) {
  EXPECT_EQ(run_kforge({"eval", "--precision", "fp8", "x"}).exit_code, 2);
  EXPECT_EQ(run_kforge({"eval", "--trials", "0", "x"}).exit_code, 2);
  auto r = run_kforge({"eval", "--min-samples", "50", "--max-samples", "10", "--device", "cpu", "x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--min-samples is larger"), std::string::npos) << r.err;
}

TEST(CliUsage, MissingFolderAndUnknownProblem) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", dir.file("nope")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such folder"), std::string::npos) << r.err;
  r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--problem", "level9/999", "c.py"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no built-in problem level9/999"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("k.db")));  // nothing written on a usage error
}

TEST(CliUsage, FolderGivenWithProblem) {
  TempDir dir;
  auto r = run_kforge({"eval", "--device", "cpu", "--problem", "level1/1", dir.path().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is a folder"), std::string::npos) << r.err;
}

TEST(CliUsage, HelpShowsDefaults) {
  auto r = run_kforge({"eval", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* expected : {"--trials", "=5", "--timeout", "=300", "--max-time", "--device", "=auto", "--json", "--fallback", "=mixed"})
    EXPECT_NE(r.out.find(expected), std::string::npos) << expected << "\n" << r.out;
  EXPECT_EQ(run_kforge({"--help"}).exit_code, 0);
  EXPECT_EQ(run_kforge({"report", "--help"}).exit_code, 0);
  EXPECT_EQ(run_kforge({"export", "--help"}).exit_code, 0);
  EXPECT_EQ(run_kforge({"problems", "list", "--help"}).exit_code, 0);
  EXPECT_EQ(run_kforge({"problems", "lint", "--help"}).exit_code, 0);
}

TEST(CliUsage, GpuOnlyOptionsOnTheCpu) {
  EXPECT_EQ(run_kforge({"eval", "--fallback", "lenient", "x"}).exit_code, 2);
  // The policy tells kernels apart; the CPU has none, so strict there is refused, not ignored.
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--fallback", "strict", "--problem",
                       "level1/1", source_path("tests/candidates/correct.py")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--fallback strict needs a GPU"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("k.db")));
  r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--cuda-graph", "--problem", "level1/1",
                  source_path("tests/candidates/correct.py")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--cuda-graph needs a GPU"), std::string::npos) << r.err;
}

TEST(CliUsage, CudaWithoutGpu) {
  if (probe_cuda_devices().count > 0) GTEST_SKIP() << "this machine has a GPU";
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cuda", "--problem", "level1/1",
                       source_path("tests/candidates/correct.py")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no CUDA device here"), std::string::npos) << r.err;
}

// Multi-rank problems (level 7) are linted, not evaluated, baselined or measured yet: asked for
// alone, an error that says so; found in a folder, a note, and the rest of the folder still runs.
// kforge eval judges multi-rank problems on the CPU (tests/integration/cpu_ranks_test.cpp); the
// agent, the baselines and the metadata do not yet, and say so.
TEST(CliUsage, MultiRankProblemsAreNotSearchedMeasuredOrDerivedYetAndSaySo) {
  TempDir dir;
  std::string config = dir.write("kforge.toml", "[models.none]\napi = \"scripted\"\nendpoint = \"answers\"\nmodel = \"none\"\n");
  auto r = run_kforge({"--db", dir.file("k.db"), "agent", "--config", config, "--problem", "level7/1", "--model", "none", "--device", "cpu"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("not searched"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("every problem chosen is a multi-rank one"), std::string::npos) << r.err;
  // The problem tools that run its model as one process say the same (lint runs its ranks).
  r = run_kforge({"--db", dir.file("k.db"), "baseline", "--device", "cpu", "level7/1", "--modes", "eager"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("does not measure baselines of those yet"), std::string::npos) << r.err;
  r = run_kforge({"--db", dir.file("k.db"), "problems", "info", "level7/1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("does not derive metadata of those yet"), std::string::npos) << r.err;
}

TEST(CliUsage, ProblemsListShowsTheBuiltinSuite) {
  auto r = run_kforge({"problems", "list"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Square_Matmul"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("problems in"), std::string::npos);
  auto j = run_kforge({"problems", "list", "--json"}).json_lines();
  EXPECT_GE(j.size(), 12u);
  for (const auto& p : j) EXPECT_FALSE(p.contains("error")) << p.dump();
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.front()["precision"], "fp32");
  // Level 5 declares bf16 (and level 6's transformer-sized problems).
  EXPECT_TRUE(std::any_of(j.begin(), j.end(), [](const auto& p) { return p["precision"] == "bf16"; }));
  // Level 6's training steps and level 7's ranks are said, in the JSON and on the line.
  EXPECT_TRUE(std::any_of(j.begin(), j.end(), [](const auto& p) { return p["training"] == true; }));
  EXPECT_TRUE(std::any_of(j.begin(), j.end(), [](const auto& p) { return p["world_size"] == 2; }));
  EXPECT_NE(r.out.find("ok (training step)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ok (2 ranks)"), std::string::npos) << r.out;
}

TEST(CliUsage, ProblemsListReportsBrokenProblems) {
  TempDir dir;
  dir.write("level1/1_NoModel.py", "def get_inputs():\n    return []\ndef get_init_inputs():\n    return []\n");
  dir.write("level1/2_Dup.py", "x");
  dir.write("level1/2_Dup2.py", "x");
  auto r = run_kforge({"problems", "list", "--suite", dir.path().string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("no module-level class Model"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("duplicate id 2"), std::string::npos) << r.err;
}

TEST(CliUsage, ReportWithoutDatabase) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("none.db"), "report"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no such database"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.db")));
}

TEST(CliUsage, CorruptDatabaseIsRefusedAndKept) {
  TempDir dir;
  std::string db = dir.write("k.db", std::string(4096, 'z'));
  auto r = run_kforge({"--db", db, "report"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not a kforge database or is damaged"), std::string::npos) << r.err;
  EXPECT_EQ(std::filesystem::file_size(db), 4096u);
}

TEST(CliUsage, ExportNeedsAFormat) {
  EXPECT_EQ(run_kforge({"export"}).exit_code, 2);
  EXPECT_EQ(run_kforge({"export", "--format", "csv"}).exit_code, 2);
}

}  // namespace
}  // namespace kforge::testing
