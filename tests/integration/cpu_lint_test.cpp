// kforge problems lint and info, and kforge baseline, through the real binary and the worker's Python on the CPU: each lint
// fires on the test problem written to break it, and the shipped suite stays clean.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>

#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

TEST(ProblemsLint, FlagsEachBrokenProblemWithItsRule) {
  auto r = run_kforge({"problems", "lint", "--device", "cpu", "--json", "--suite", source_path("tests/problems/lint")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::map<std::string, std::set<std::string>> rules;
  for (const auto& line : r.json_lines())
    for (const auto& f : line.at("findings")) rules[line.at("id")].insert(f.at("rule").get<std::string>());
  const std::map<std::string, std::string> expected = {
      {"level1/1_Random_In_Forward", "random-in-forward"}, {"level1/2_Device_In_File", "device-in-file"},
      {"level1/3_Near_Zero_Output", "near-zero"},          {"level1/4_Input_Independent", "input-independent"},
      {"level1/5_Weight_Independent", "weight-independent"}, {"level1/6_Nondeterministic", "nondeterministic"},
      {"level1/7_Dtype_In_File", "dtype-in-file"},         {"level1/10_Extra_Size_Changes_Init", "extra-sizes"},
      {"level6/1_Unused_Parameter_Train", "near-zero"},    {"level7/1_Rank_Zero_Shard", "near-zero"},
      {"level7/2_Rank_Fails_To_Start", "load"}};
  ASSERT_EQ(rules.size(), expected.size()) << r.out;
  for (const auto& [id, rule] : expected) EXPECT_TRUE(rules[id].count(rule)) << id << " lacks " << rule << "\n" << r.out;
  // Clean on purpose: an output of the inputs alone beside a weighted one; a BatchNorm that only
  // train mode (how the evaluation builds the model) keeps input-dependent; two host-bound steps
  // (a GPU rule: GpuRules.AHostBoundStepIsLinted), sound otherwise.
  size_t clean = 0;
  for (const auto& line : r.json_lines())
    if (line.at("id") == "level1/8_Residual_Output_Clean" || line.at("id") == "level1/9_BatchNorm_Train_Mode_Clean" ||
        line.at("id") == "level6/2_Host_Bound_Loop_Train" || line.at("id") == "level6/3_Host_Sync_Train") {
      EXPECT_TRUE(line.at("findings").empty()) << line.dump();
      ++clean;
    }
  EXPECT_EQ(clean, 4u) << r.out;
  // A multi-rank problem's findings name the rank; a rank that fails is the cause, not the rank
  // its failure left waiting in a collective.
  for (const auto& line : r.json_lines()) {
    if (line.at("id") == "level7/1_Rank_Zero_Shard") {
      EXPECT_NE(line.at("findings").dump().find("rank 1: the output: 100% of values within"), std::string::npos) << line.dump();
    }
    if (line.at("id") == "level7/2_Rank_Fails_To_Start") {
      EXPECT_NE(line.at("findings").dump().find("rank 1: ValueError: rank 1 has no shard (2_Rank_Fails_To_Start.py, line 29); "
                                                "rank 0 then failed in a collective"),
                std::string::npos)
          << line.dump();
    }
  }
}

TEST(ProblemsLint, ShippedSuitePassesTheStaticRules) {
  auto r = run_kforge({"problems", "lint", "--static-only"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 of "), std::string::npos) << r.out;
}

// One problem per level, run at cpu_sizes (the whole suite is linted on a GPU: gpu_lint_test).
TEST(ProblemsLint, ShippedProblemsOfEveryLevelLintCleanOnTheCpu) {
  auto r = run_kforge(
      {"problems", "lint", "--device", "cpu", "level1/4", "level2/1", "level3/1", "level5/1", "level6/15", "level7/1"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 of 6 problems flagged"), std::string::npos) << r.out;
}

// The multi-rank level on the CPU: every problem's two ranks as two processes over gloo, every run
// rule on each (issue 24's "whole path on the CPU with gloo in CI", as far as it is built).
TEST(ProblemsLint, TheMultiRankLevelLintsCleanOnTheCpuOverGloo) {
  auto r = run_kforge({"problems", "lint", "--device", "cpu", "level7/1-13"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 of 13 problems flagged"), std::string::npos) << r.out;
}

// A problem whose inputs cannot be allocated is a `memory` finding that says so, not a `load` one
// that echoes the allocator's assert.
TEST(ProblemsLint, AProblemLargerThanTheDeviceIsAMemoryFinding) {
  auto r = run_kforge({"problems", "lint", "--device", "cpu", "--json",
                       source_path("tests/problems/broken/needs_more_memory_than_any_device.py")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out << r.err;
  const auto& findings = lines[0].at("findings");
  ASSERT_EQ(findings.size(), 1u) << lines[0].dump();
  EXPECT_EQ(findings[0].at("rule"), "memory") << lines[0].dump();
  EXPECT_NE(findings[0].at("message").get<std::string>().find("does not fit in the cpu's memory"), std::string::npos)
      << lines[0].dump();
}

TEST(ProblemsLint, UnknownProblemIsAUsageError) {
  auto r = run_kforge({"problems", "lint", "level9/999"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no built-in problem level9/999"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kforge::testing

namespace kforge::testing {
namespace {

// kforge problems info derives a problem's figures on the meta device, stores them, and reads
// them back from the store the second time.
// cuDNN's recurrent layers take TF32 in fp32 by PyTorch's default, as convolutions do: nn.LSTM's
// FLOPs are in the share the SOL times at the TF32 rate (all but the classifier after it), an RNN
// written in nn.Linear steps has none there (a matmul's default is fp32).
TEST(ProblemsInfo, RecurrentLayersAreInTheTf32Share) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "problems", "info", "--json", "level3/30", "level3/29"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 2u) << r.out;
  const double lstm_flops = lines[0].at("flops").get<double>(), lstm_tf32 = lines[0].at("tf32_flops").get<double>();
  EXPECT_GT(lstm_tf32, 0.999 * lstm_flops) << lines[0].dump();
  EXPECT_LT(lstm_tf32, lstm_flops) << lines[0].dump();
  EXPECT_GT(lines[1].at("flops").get<int64_t>(), 0) << lines[1].dump();
  EXPECT_EQ(lines[1].at("tf32_flops").get<int64_t>(), 0) << lines[1].dump();
}

// torch's FLOP counter has no formula for grouped_mm (it counted level5/16 as no work at all, so
// its SOL was taken for memory-bound); kforge_flops.py's counts every row against its group's
// matrix: 16384 rows x 7168 x 4096.
TEST(ProblemsInfo, GroupedGemmsAreCounted) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "problems", "info", "--json", "level5/16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0].at("flops").get<int64_t>(), int64_t{2} * 16384 * 7168 * 4096) << lines[0].dump();
}

TEST(ProblemsInfo, DerivesStoresAndReuses) {
  TempDir dir;
  auto first =
      run_kforge({"--db", dir.file("k.db"), "problems", "info", "--json", "level1/1", "level5/1", "level1/9"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto lines = first.json_lines();
  ASSERT_EQ(lines.size(), 3u) << first.out;
  // The convolutions' share of the FLOPs (the SOL times it at the TF32 rate): all of a
  // convolution's, none of a matmul's.
  EXPECT_EQ(lines[0].at("tf32_flops").get<int64_t>(), 0);
  EXPECT_GT(lines[2].at("tf32_flops").get<int64_t>(), 0) << lines[2].dump();
  EXPECT_EQ(lines[2].at("tf32_flops"), lines[2].at("flops")) << lines[2].dump();
  const auto& matmul = lines[0];  // 4096 x 4096 fp32 matmul
  EXPECT_EQ(matmul.at("id"), "level1/1_Square_Matmul");
  EXPECT_EQ(matmul.at("flops").get<int64_t>(), int64_t{2} * 4096 * 4096 * 4096);
  EXPECT_EQ(matmul.at("input_bytes").get<int64_t>(), int64_t{2} * 4096 * 4096 * 4);
  EXPECT_EQ(matmul.at("output_bytes").get<int64_t>(), int64_t{4096} * 4096 * 4);
  EXPECT_EQ(matmul.at("outputs")[0].at("dtype"), "float32");
  EXPECT_EQ(lines[1].at("precision"), "bf16");  // level 5 declares it
  EXPECT_EQ(lines[1].at("outputs")[0].at("dtype"), "bfloat16");
  EXPECT_GT(lines[1].at("flops").get<int64_t>(), 0);

  auto again = run_kforge({"--db", dir.file("k.db"), "problems", "info", "level1/1", "level5/1"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("0 derived now, 2 from the store"), std::string::npos) << again.out;
}

// --sol: the device's peak rates are measured once and stored, and each problem gets its
// speed-of-light time; the built-in 4096^3 fp32 matmul is compute bound, the ReLU memory bound.
TEST(ProblemsInfo, SpeedOfLightFromPeakRatesMeasuredOnce) {
  TempDir dir;
  auto first = run_kforge({"--db", dir.file("k.db"), "problems", "info", "--sol", "--device", "cpu", "--json",
                           "level1/1", "level1/2"});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.err.find("measuring cpu's peak rates"), std::string::npos) << first.err;
  auto lines = first.json_lines();
  ASSERT_EQ(lines.size(), 2u) << first.out;
  for (const auto& j : lines) EXPECT_GT(j.at("sol_ms").get<double>(), 0.0) << j.dump();
  EXPECT_EQ(lines[0].at("sol_bound"), "compute") << lines[0].dump();
  EXPECT_EQ(lines[1].at("sol_bound"), "memory") << lines[1].dump();

  auto again = run_kforge({"--db", dir.file("k.db"), "problems", "info", "--sol", "--device", "cpu", "level1/1"});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_EQ(again.err.find("measuring"), std::string::npos) << again.err;  // the stored rates
  EXPECT_NE(again.out.find("peak rates of cpu"), std::string::npos) << again.out;

  // A prompt describes the device from the stored measurement.
  auto prompt = run_kforge({"--db", dir.file("k.db"), "prompt", "level1/2", "--format", "cuda"});
  ASSERT_EQ(prompt.exit_code, 0) << prompt.err;
  EXPECT_NE(prompt.out.find("cores), as measured here: device-to-device copy"), std::string::npos) << prompt.out;
}

}  // namespace
}  // namespace kforge::testing

namespace kforge::testing {
namespace {

// kforge baseline times the reference eagerly and compiled, stores both, and exports upstream's
// baseline JSON shape, one file per mode.
TEST(Baseline, TimesEagerAndCompiledAndExportsUpstreamShape) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "baseline", "--device", "cpu", "--trials", "5", "--modes",
                       "eager,compile", "--suite", source_path("tests/problems"), "--export", dir.file("out"), "--json",
                       "level1/1"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 2u) << r.out;
  for (const auto& j : lines) {
    EXPECT_TRUE(j.at("error").is_null()) << j.dump();
    EXPECT_GT(j.at("median").get<double>(), 0.0) << j.dump();
    EXPECT_EQ(j.at("num_trials"), 5);
  }
  EXPECT_EQ(lines[0].at("mode"), "eager");
  EXPECT_EQ(lines[1].at("mode"), "compile");
  // Upstream's file names, so its scripts and `report --baseline-file` read them as they are.
  for (const char* mode : {"eager", "compile"}) {
    std::ifstream in(dir.file(std::string("out/") +
                              (mode == std::string("eager") ? "baseline_time_torch.json"
                                                            : "baseline_time_torch_compile_inductor_default.json")));
    ASSERT_TRUE(in) << mode;
    auto file = nlohmann::json::parse(in);
    const auto& entry = file.at("level1").at("1_Tiny_Add_ReLU.py");
    for (const char* key : {"mean", "std", "min", "max", "num_trials", "hardware", "device"})
      EXPECT_TRUE(entry.contains(key)) << mode << " lacks " << key;
  }
  EXPECT_EQ(run_kforge({"baseline", "--modes", "turbo"}).exit_code, 2);
}

// A bf16 problem whose buffer is a view of an fp32 tensor compiles: the tools cast the model as the
// worker does (Module._apply), not by assigning `.data`, which torch.compile's fake tensors reject
// ("torch.float32 != torch.bfloat16"; found on level5/8_FP8_Rowwise_Scaled_GEMM).
TEST(Baseline, CompilesAProblemWhoseBufferIsAView) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "baseline", "--device", "cpu", "--trials", "3", "--modes", "compile",
                       "--json", source_path("tests/problems/view_buffer/level1/1_Row_Scale_Bf16.py")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_TRUE(lines[0].at("error").is_null()) << lines[0].dump();
  EXPECT_GT(lines[0].at("median").get<double>(), 0.0) << lines[0].dump();
}

// kforge report --baseline: the speedup of a stored run's candidate becomes the stored baseline's
// median over the candidate's median; without a stored baseline of that mode it has none.
TEST(Baseline, ReportUsesAStoredBaseline) {
  TempDir dir;
  const std::string db = dir.file("k.db");
  const std::string problem = source_path("tests/problems/level1/1_Tiny_Add_ReLU.py");
  auto b = run_kforge({"--db", db, "baseline", "--device", "cpu", "--trials", "5", "--modes", "eager", "--json", problem});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  const double baseline_ms = b.json_lines().at(0).at("median").get<double>();

  std::string source;
  {
    std::ifstream in(problem);
    source.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(dir.file("identity.py")) << source << "\n\nModelNew = Model\n";
  auto e = run_kforge({"--db", db, "eval", "--device", "cpu", "--max-time", "0.5", "--json", "--problem", problem,
                       dir.file("identity.py")});
  ASSERT_EQ(e.exit_code, 0) << e.out << e.err;
  const double cand_ms = e.json_lines().at(0).at("cand_ms").get<double>();

  auto r = run_kforge({"--db", db, "report", "--baseline", "eager", "--results", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto report = nlohmann::json::parse(r.out);
  const auto& result = report.at("results").at(0);
  EXPECT_NEAR(result.at("speedup").get<double>(), baseline_ms / cand_ms, 1e-9 * baseline_ms / cand_ms) << result.dump();
  EXPECT_TRUE(report.at("baseline").at("missing").empty()) << report.dump();

  auto none = run_kforge({"--db", db, "report", "--baseline", "compile", "--results", "--json"});
  ASSERT_EQ(none.exit_code, 0) << none.out << none.err;
  auto without = nlohmann::json::parse(none.out);
  EXPECT_TRUE(without.at("results").at(0).at("speedup").is_null()) << without.dump();
  EXPECT_EQ(without.at("baseline").at("missing").size(), 1u) << without.dump();
  EXPECT_EQ(without.at("fast_p").at("all").at("fast_1"), 0.0) << without.dump();

  EXPECT_EQ(run_kforge({"--db", db, "report", "--baseline", "turbo"}).exit_code, 2);

  // Without --baseline, the paired figures come with fast_p against each stored baseline mode the
  // store has (eager here; no compile baseline, so no compile column).
  auto plain = run_kforge({"--db", db, "report"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("against stored baselines"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("eager fast_1"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("compile fast_1"), std::string::npos) << plain.out;
  auto plain_json = nlohmann::json::parse(run_kforge({"--db", db, "report", "--json"}).out);
  const auto& eager = plain_json.at("against_stored_baselines").at("eager");
  EXPECT_EQ(eager.at("without_baseline"), 0) << plain_json.dump(2);
  EXPECT_NEAR(eager.at("fast_p").at("all").at("geomean_speedup").get<double>(), baseline_ms / cand_ms,
              1e-9 * baseline_ms / cand_ms)
      << plain_json.dump(2);
  EXPECT_FALSE(plain_json.at("against_stored_baselines").contains("compile")) << plain_json.dump(2);
}

// --shard I/N measures only that shard of the problems, split as eval --shard splits them: two
// shards of two problems take one each, together both.
TEST(Baseline, ShardsSplitTheProblems) {
  TempDir dir;
  std::set<std::string> measured;
  for (int i = 0; i < 2; ++i) {
    auto r = run_kforge({"--db", dir.file("k.db"), "baseline", "--device", "cpu", "--trials", "3", "--modes", "eager",
                         "--json", "--shard", std::to_string(i) + "/2", "--",
                         source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"),
                         source_path("tests/problems/level1/2_Tiny_Argmax.py")});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("shard " + std::to_string(i) + "/2: 1 of 2 problems"), std::string::npos) << r.err;
    auto lines = r.json_lines();
    ASSERT_EQ(lines.size(), 1u) << r.out;
    measured.insert(lines[0].at("problem").get<std::string>());
  }
  EXPECT_EQ(measured.size(), 2u);
}

// A second run shows what the store holds instead of measuring it again; --force measures again.
TEST(Baseline, ASecondRunGoesOnFromTheStore) {
  TempDir dir;
  const std::vector<std::string> base{"--db", dir.file("k.db"), "baseline", "--device", "cpu", "--trials", "3",
                                      "--modes", "eager", "--suite", source_path("tests/problems"), "--json"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_kforge(args);
  };
  auto first = with({"level1/1"});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  ASSERT_EQ(first.json_lines().size(), 1u);
  EXPECT_FALSE(first.json_lines()[0].contains("stored"));

  auto second = with({"level1/1", "level1/4"});  // one stored, one new
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  auto lines = second.json_lines();
  ASSERT_EQ(lines.size(), 2u) << second.out;
  std::map<std::string, bool> stored;
  for (const auto& j : lines) stored[j.at("id")] = j.value("stored", false);
  EXPECT_TRUE(stored.at("level1/1_Tiny_Add_ReLU")) << second.out;
  EXPECT_FALSE(stored.at("level1/4_Tiny_Log_ReLU")) << second.out;
  EXPECT_EQ(lines[0].at("median"), first.json_lines()[0].at("median"));

  auto forced = with({"--force", "level1/1"});
  ASSERT_EQ(forced.exit_code, 0) << forced.out << forced.err;
  EXPECT_FALSE(forced.json_lines().at(0).contains("stored")) << forced.out;
}

}  // namespace
}  // namespace kforge::testing
