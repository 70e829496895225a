// The whole trust corpora on a CUDA device (label gpu; skipped without one): every hack of
// tests/adversarial/ is caught, every honest candidate of tests/legit/ passes.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>

#include "pool/devices.hpp"
#include "pool/worker_paths.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"
#include "support/trust_corpus.hpp"

extern char** environ;

namespace kforge::testing {
namespace {

#define REQUIRE_GPU() \
  if (probe_cuda_devices().count == 0) GTEST_SKIP() << "no CUDA device on this machine"

TEST(GpuTrust, EveryHackIsCaught) {
  REQUIRE_GPU();
  expect_trust_corpus("tests/adversarial", "cuda:0", 30);
}

TEST(GpuTrust, EveryHonestCandidatePasses) {
  REQUIRE_GPU();
  expect_trust_corpus("tests/legit", "cuda:0", 25, /*honest=*/true);
}

// Another process keeps the GPU busy (here a torch loop of long spin kernels, ten queued at a
// time; on the H200 it was an orphaned baseline tool): the calibration, before any candidate code
// runs, finds the GPU slow to answer an empty kernel (each probe waits for the other context's
// time slice) and says so, with no verdict stored. Before, each honest candidate beside such work
// was stored as `rejected`, and with this load (ccec1c9) `correct` with the other process's time
// slices charged to it.
TEST(GpuTrust, AnotherProcessesGpuWorkIsNotTheCandidates) {
  REQUIRE_GPU();
  TempDir dir;
  std::string python = worker_python().string();
  std::string busy = "import torch, time\n"
                     "end = time.time() + 120\n"
                     "while time.time() < end:\n"
                     "    for _ in range(10):\n"
                     "        torch.cuda._sleep(200_000_000)\n"
                     "    torch.cuda.synchronize()\n";
  std::vector<std::string> args{python, "-c", busy};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t foreign = 0;
  ASSERT_EQ(::posix_spawn(&foreign, argv[0], nullptr, nullptr, argv.data(), environ), 0);
  std::this_thread::sleep_for(std::chrono::seconds(8));  // its import and first kernels
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cuda:0", "--json", "--max-time", "1", "--problem",
                       source_path("tests/problems/hack_target/level1/1_Add_ReLU.py"),
                       source_path("tests/candidates/identity.py")});
  ::kill(foreign, SIGKILL);
  ::waitpid(foreign, nullptr, 0);
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out << r.err;
  const std::string message = lines[0].value("message", "");
  EXPECT_EQ(lines[0].value("verdict", ""), "runtime_error") << lines[0].dump();
  EXPECT_NE(message.find("another process is using this GPU"), std::string::npos) << message;
  EXPECT_NE(message.find("not stored"), std::string::npos) << message;
  // Nothing stored: the same candidate on the idle GPU is evaluated afresh, and is correct.
  auto again = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cuda:0", "--json", "--max-time", "1",
                           "--problem", source_path("tests/problems/hack_target/level1/1_Add_ReLU.py"),
                           source_path("tests/candidates/identity.py")});
  auto after = again.json_lines();
  ASSERT_EQ(after.size(), 1u) << again.out << again.err;
  EXPECT_EQ(after[0].value("verdict", ""), "correct") << after[0].dump();
}

// tests/realworld/ whole (its CUDA and Triton candidates, and those that run anywhere): what
// models write, each with the verdict it deserves. Builds happen inside the jobs here.
TEST(GpuRealworld, EveryCandidateGetsItsVerdict) {
  REQUIRE_GPU();
  expect_trust_corpus("tests/realworld", "cuda:0", 50, /*honest=*/false, /*ci_only=*/false, 600);
}

// Under the default policy (mixed) a correct candidate's message says whose kernels ran: a
// load_inline kernel is the candidate's own, torch operators are PyTorch's library kernels.
TEST(GpuTrust, MixedPolicyReportsWhoseKernelsRan) {
  REQUIRE_GPU();
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cuda:0", "--json", "--max-time", "1", "--problem",
                       source_path("tests/problems/hack_target/level1/1_Add_ReLU.py"),
                       source_path("tests/legit/add_relu_inline_cuda_vec4.py"),
                       source_path("tests/adversarial/pytorch_fallback_torch_ops.py")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> message;
  for (const auto& line : r.json_lines()) {
    ASSERT_EQ(line.at("verdict"), "correct") << line.dump();
    std::string path = line.at("candidate");
    message[path.substr(path.find_last_of('/') + 1)] = line.at("message");
  }
  const std::string own = message["add_relu_inline_cuda_vec4.py"];
  EXPECT_NE(own.find("kernels: 1 own (kforge_legit_fused_add_relu_vec4.so: 1)"), std::string::npos) << own;
  EXPECT_NE(own.find("own 100% of GPU time"), std::string::npos) << own;
  const std::string library = message["pytorch_fallback_torch_ops.py"];
  EXPECT_NE(library.find("kernels: 0 own, 2 library (libtorch_cuda.so: 2); own 0% of GPU time"), std::string::npos)
      << library;
}

// --cuda-graph times graph replays: the identity candidate stays correct at about 1.00 (a loose
// sanity bound; the timing itself is benchmarked), and a forward that cannot be captured gets a
// runtime_error that says so.
TEST(GpuTrust, CudaGraphMode) {
  REQUIRE_GPU();
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cuda:0", "--json", "--max-time", "1",
                       "--cuda-graph", "--problem", source_path("tests/problems/hack_target/level1/1_Add_ReLU.py"),
                       source_path("tests/candidates/identity.py"),
                       source_path("tests/candidates/cuda_graph_breaks_capture.py"),
                       source_path("tests/candidates/cuda_graph_work_in_snapshot.py")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  const auto& identity = got["identity.py"];
  ASSERT_EQ(identity.value("verdict", ""), "correct") << identity.dump();
  EXPECT_NE(identity.value("message", "").find("timed as CUDA graph replays"), std::string::npos) << identity.dump();
  EXPECT_NEAR(identity.at("speedup").get<double>(), 1.0, 0.1) << identity.dump();
  // Its work moved from the timed replay into the snapshot after it: seen by kforge's clock, it is
  // timed at what it does (eight times the reference's work, so well below 1), never as an empty replay.
  const auto& moved = got["cuda_graph_work_in_snapshot.py"];
  ASSERT_EQ(moved.value("verdict", ""), "correct") << moved.dump();
  EXPECT_LT(moved.at("speedup").get<double>(), 1.0) << moved.dump();
  EXPECT_NE(moved.value("message", "").find("timed by kforge's clock"), std::string::npos) << moved.dump();
  const auto& breaks = got["cuda_graph_breaks_capture.py"];
  EXPECT_EQ(breaks.value("verdict", ""), "runtime_error") << breaks.dump();
  EXPECT_NE(breaks.value("message", "").find("could not be captured in a CUDA graph"), std::string::npos)
      << breaks.dump();
}

}  // namespace
}  // namespace kforge::testing
