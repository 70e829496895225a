// kforge profile's reading of Nsight Compute: the raw CSV page as ncu 2025.3 wrote it on the H200
// for tests/legit/add_relu_inline_cuda_vec4.py (tests/data/ncu/, recorded at bbc7228), and cases
// built around it; the command's refusals without ncu.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "profile/ncu_report.hpp"
#include "profile/ncu_runner.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::profile {
namespace {

std::string recorded() {
  std::ifstream in(kforge::testing::source_path("tests/data/ncu/add_relu_vec4_raw.csv"));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A raw page of one kernel with the given metrics (header, units, one row), as ncu lays it out.
std::string page(const std::string& kernel, const std::vector<std::pair<std::string, std::string>>& metrics) {
  std::string header = "\"ID\",\"Kernel Name\"", units = "\"\",\"\"", row = "\"0\",\"" + kernel + "\"";
  for (const auto& [name, value] : metrics) {
    header += ",\"" + name + "\"";
    units += ",\"\"";
    row += ",\"" + value + "\"";
  }
  return "==PROF== Connected to process 1 (python)\nprogram output, not CSV\n" + header + "\n" + units + "\n" + row + "\n";
}

TEST(NcuReport, ReadsTheRecordedPage) {
  auto kernels = parse_ncu_raw_csv(recorded());
  ASSERT_EQ(kernels.size(), 1u);
  const NcuKernel& k = kernels[0];
  EXPECT_EQ(k.name, "fused_add_relu_vec4(const float4 *, const float4 *, float4 *, long)");  // commas kept inside quotes
  EXPECT_NEAR(k.duration_ms(), 0.181824, 1e-9);
  EXPECT_EQ(k.metric("launch__grid_size").value_or(0), 65536);  // "65,536": the separator dropped
  EXPECT_EQ(k.metric("launch__registers_per_thread").value_or(0), 32);
  EXPECT_NEAR(k.metric("dram__bytes_read.sum").value_or(0), 536883200, 0.5);
  EXPECT_EQ(k.text.at("Block Size"), "(256, 1, 1)");
  EXPECT_FALSE(k.metric("Block Size"));
  EXPECT_EQ(roofline_class(k), "memory-bound");
}

TEST(NcuReport, DigestOfTheRecordedKernel) {
  const std::string d = ncu_digest(parse_ncu_raw_csv(recorded()).at(0));
  for (const char* expected : {"kernel fused_add_relu_vec4(", "0.1818 ms, grid 65536 x block 256, 32 registers/thread, 62.06 waves",
                               "- memory-bound: DRAM throughput 90% of peak, SM throughput 40%, L2 hit rate 34%, issue slots busy 41%",
                               "- occupancy: 81% achieved of 100% theoretical\n",
                               "long_scoreboard 25.6 (waiting on global or local memory), wait 2.1", "- tensor cores idle"})
    EXPECT_NE(d.find(expected), std::string::npos) << expected << "\n" << d;
  EXPECT_EQ(d.find("- local memory:"), std::string::npos) << d;  // no spills recorded
  EXPECT_EQ(d.find("limited by"), std::string::npos) << d;    // full theoretical occupancy
}

TEST(NcuReport, ClassesFollowTheThroughputs) {
  auto one = [](const std::string& dram, const std::string& sm) {
    return parse_ncu_raw_csv(page("k", {{"dram__throughput.avg.pct_of_peak_sustained_elapsed", dram},
                                        {"sm__throughput.avg.pct_of_peak_sustained_elapsed", sm}}))
        .at(0);
  };
  EXPECT_EQ(roofline_class(one("85", "30")), "memory-bound");
  EXPECT_EQ(roofline_class(one("20", "75")), "compute-bound");
  EXPECT_EQ(roofline_class(one("62", "70")), "compute-bound");
  EXPECT_EQ(roofline_class(one("35", "40")), "latency-bound");
  EXPECT_NE(ncu_digest(one("35", "40")).find("neither memory nor compute is near its peak"), std::string::npos);
}

TEST(NcuReport, SpillsLimitsAndTensorCoresAreSaid) {
  auto k = parse_ncu_raw_csv(page("gemm_tile<128>(float const*, float*)",
                                  {{"sm__warps_active.avg.pct_of_peak_sustained_active", "22.5"},
                                   {"sm__maximum_warps_per_active_cycle_pct", "25"},
                                   {"launch__occupancy_limit_registers", "2"},
                                   {"launch__occupancy_limit_shared_mem", "4"},
                                   {"launch__occupancy_limit_warps", "8"},
                                   {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "1,024"},
                                   {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "512"},
                                   {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "47.5"},
                                   {"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "3.5"},
                                   {"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio", "9"}}));
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name, "gemm_tile<128>(float const*, float*)");
  const std::string d = ncu_digest(k[0]);
  for (const char* expected : {"occupancy: 22% achieved of 25% theoretical (limited by registers)",
                               "local memory: 1536 sectors", "tensor cores busy 48%",
                               "mio_throttle 9.0 (the shared-memory/special-function queue is full), barrier 3.5"})
    EXPECT_NE(d.find(expected), std::string::npos) << expected << "\n" << d;
}

TEST(NcuReport, NoHeaderNoKernels) {
  EXPECT_TRUE(parse_ncu_raw_csv("").empty());
  EXPECT_TRUE(parse_ncu_raw_csv("==PROF== Connected\n==ERROR== Failed to profile \"k\"\n").empty());
  // A row whose field count differs from the header's (a candidate's print that looks like CSV) is skipped.
  std::string text = page("k", {{"gpu__time_duration.sum", "1000"}}) + "\"1\",\"forged\"\n";
  auto kernels = parse_ncu_raw_csv(text);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "k");
  EXPECT_EQ(slowest_kernel({}), nullptr);
}

TEST(NcuReport, SlowestKernelIsTheLongest) {
  auto kernels = parse_ncu_raw_csv(page("a", {{"gpu__time_duration.sum", "2,000"}}));
  auto more = parse_ncu_raw_csv(page("b", {{"gpu__time_duration.sum", "9,000"}}));
  kernels.push_back(more.at(0));
  ASSERT_NE(slowest_kernel(kernels), nullptr);
  EXPECT_EQ(slowest_kernel(kernels)->name, "b");
}

TEST(ProfileCommand, WithoutNcuItSaysSo) {
  auto r = kforge::testing::run_command({"/usr/bin/env", "-u", "KFORGE_NCU", "PATH=/usr/bin:/bin", KFORGE_BINARY, "profile",
                                         "--problem", "level1/2",
                                         kforge::testing::source_path("tests/legit/add_relu_inline_cuda_vec4.py")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("ncu"), std::string::npos) << r.err;
}

TEST(ProfileCommand, NativeCandidatesAndMissingFilesAreRefused) {
  auto missing = kforge::testing::run_kforge({"profile", "--problem", "level1/2", "no_such_candidate.py"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no such candidate file"), std::string::npos) << missing.err;
  auto native = kforge::testing::run_kforge(
      {"profile", "--problem", "level1/2", kforge::testing::source_path("tests/adversarial/side_stream_native.cu")});
  EXPECT_EQ(native.exit_code, 2);
  EXPECT_NE(native.err.find("not native ones"), std::string::npos) << native.err;
}

// The profiled candidate runs in the profile's scratch folder, beside Nsight Compute's report, and
// may put a link in the report's place to a file it may not read: kforge reads the report as
// itself, and a report it cannot parse has its tail quoted in the error (in `kforge agent
// --profile`, the model's next prompt). A stand-in ncu here does what such a candidate would.
TEST(ProfileRunner, AReportReplacedByALinkIsNotRead) {
  kforge::testing::TempDir dir;
  const std::string secret = "sk-kforge-profile-report-secret";
  const std::string secret_file = dir.write("secret.txt", secret + "\n");
  const std::string ncu = dir.write("ncu", "#!/usr/bin/env bash\n"
                                           "while [[ $# -gt 0 ]]; do\n"
                                           "  if [[ \"$1\" == --log-file ]]; then log=\"$2\"; shift; fi\n"
                                           "  shift\n"
                                           "done\n"
                                           "ln -sf " + secret_file + " \"$log\"\n"
                                           "echo '{\"ok\": true}'\n");
  std::filesystem::permissions(ncu, std::filesystem::perms::owner_all);
  ProfileRequest request;
  request.problem = kforge::testing::source_path("tests/problems/hack_target/level1/1_Add_ReLU.py");
  request.candidate = kforge::testing::source_path("tests/legit/add_relu_clamp.py");
  request.timeout = std::chrono::seconds(60);
  ProfileResult result = run_ncu_profile(ncu, request);
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(result.kernels.empty());
  EXPECT_EQ(result.error.find(secret), std::string::npos) << result.error;
}

// What the profiled program may read inside the candidate sandbox (python/kforge_tool_paths.py):
// kforge's named folders, then the folders of the injection libraries ncu put in LD_PRELOAD and of
// those mapped into the process from a `target/<platform>/` folder, with Nsight Compute's install
// root above it. On the H200 the injection's lazy load of libnvperf_host.so from that folder was
// denied and the program died by SIGSEGV; with LD_PRELOAD's folders alone it still was, with the
// mapped libraries' it was not (docs/agent.md).
TEST(ProfilerReadable, NsightsInjectionFoldersAreReadable) {
  const std::string script =
      "import sys; sys.path.insert(0, sys.argv[1]); import kforge_tool_paths as t\n"
      "env = {'KFORGE_PROFILE_READABLE': '/usr/local/cuda/bin',\n"
      "       'LD_PRELOAD': '/opt/nv/ncu/2025.3.1/target/linux-x64/libA.so:/opt/nv/ncu/2025.3.1/target/linux-x64/libB.so "
      "libc_named.so /usr/lib/extra/libC.so'}\n"
      "maps = '\\n'.join([\n"
      "  '7f30e0000000-7f30e0021000 r-xp 00000000 08:01 1234 /opt/nv2/ncu/2026.1/target/linux-x64/./libcuda-injection.so',\n"
      "  '7f30e0100000-7f30e0121000 r--p 00000000 08:01 1235 /usr/lib/x86_64-linux-gnu/libc.so.6',\n"
      "  '7f30e0200000-7f30e0221000 rw-p 00000000 00:00 0 ',\n"
      "  '7ffd4f040000-7ffd4f062000 rw-p 00000000 00:00 0 [stack]',\n"
      "  '7f30e0300000-7f30e0321000 r--p 00000000 08:01 1236 /opt/nv2/ncu/2026.1/target/linux-x64/libInterceptorInjectionTarget.so'])\n"
      "print('|'.join(t.profiler_readable(env)))\n"
      "print('|'.join(t.profiler_readable({})))\n"
      "print('|'.join(t.profiler_readable({}, maps)))\n";
  auto run = kforge::testing::run_command(
      {"/usr/bin/env", "python3", "-c", script, kforge::testing::source_path("python")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out,
            "/usr/local/cuda/bin|/opt/nv/ncu/2025.3.1/target/linux-x64|/opt/nv/ncu/2025.3.1|/usr/lib/extra\n"
            "\n"
            "/opt/nv2/ncu/2026.1/target/linux-x64|/opt/nv2/ncu/2026.1\n");
}

}  // namespace
}  // namespace kforge::profile
