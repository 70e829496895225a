// The multi-rank judge on the CPU (issue 24; docs/notes/multi-rank-judge.md): `kforge eval` on a
// level-7 problem runs one worker per rank, each rank's reference and candidate in processes of
// their own, the candidates in a private network of the job's, over gloo. The candidates of
// tests/ranks/ say what each must get.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

const char* kProblem = "level7/2";

std::string read_file(const std::string& path) {
  std::ostringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

// A listener on the machine's loopback at the port tests/ranks/rank_reaches_for_the_machine.py
// tries: a stand-in for the references' group, which listens there. -1 when the port is taken.
int listen_on_machine_loopback(uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 8) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

TEST(CpuRanks, EachRankIsJudgedAndTheFailingRankNamed) {
  TempDir dir;
  const std::string identity = dir.write(
      "identity.py", read_file(source_path("problems/level7/2_Row_Parallel_Linear_AllReduce.py")) + "\n\nModelNew = Model\n");
  const int listener = listen_on_machine_loopback(47913);
  ASSERT_GE(listener, 0) << "port 47913 on 127.0.0.1 is taken";
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--timeout", "120", "--max-time", "0.5",
                       "--min-time", "0", "--min-samples", "5", "--json", "--problem", kProblem, identity,
                       source_path("tests/ranks/rank1_skips_bias.py"), source_path("tests/ranks/rank1_raises.py"),
                       source_path("tests/ranks/rank1_crashes.py"), source_path("tests/ranks/rank_reaches_for_the_machine.py"),
                       source_path("tests/ranks/rank_reads_the_references_folder.py"),
                       source_path("tests/ranks/rank1_cheats_when_timed.py")});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ::close(listener);
  if (r.err.find("gives none") != std::string::npos)
    GTEST_SKIP() << "this machine allows no private network namespace: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.lines_by_candidate();
  ASSERT_EQ(lines.size(), 7u) << r.out << r.err;

  const auto& id = lines.at("identity.py");
  EXPECT_EQ(id.value("verdict", ""), "correct") << id.dump();
  EXPECT_NE(id.value("message", "").find("2 ranks, each pair timed as its slowest rank's"), std::string::npos) << id.dump();
  EXPECT_TRUE(id.contains("speedup") && id["speedup"].is_number()) << id.dump();

  const auto& bias = lines.at("rank1_skips_bias.py");
  EXPECT_EQ(bias.value("verdict", ""), "incorrect") << bias.dump();
  EXPECT_EQ(bias.value("message", "").rfind("rank 1: ", 0), 0u) << bias.dump();

  const auto& raises = lines.at("rank1_raises.py");
  EXPECT_EQ(raises.value("verdict", ""), "runtime_error") << raises.dump();
  EXPECT_EQ(raises.value("message", "").rfind("rank 1: ", 0), 0u) << raises.dump();
  EXPECT_NE(raises.value("message", "").find("rank 1 gives up before its all-reduce"), std::string::npos) << raises.dump();
  // Rank 0's candidate waited in its all-reduce: ended by rank 1's process going, not by the
  // groups' 60 s timeout.
  EXPECT_LT(raises.value("wall_s", 1e9), 50.0) << raises.dump();

  const auto& crashes = lines.at("rank1_crashes.py");
  EXPECT_EQ(crashes.value("verdict", ""), "crashed") << crashes.dump();
  EXPECT_EQ(crashes.value("message", "").rfind("rank 1: ", 0), 0u) << crashes.dump();
  EXPECT_LT(crashes.value("wall_s", 1e9), 50.0) << crashes.dump();

  // Caught on rank 1 only, by its recheck after a batch of timed pairs: the ranks agree on the
  // batch before comparing its times, so the verdict is stored and names rank 1.
  const auto& timed = lines.at("rank1_cheats_when_timed.py");
  EXPECT_EQ(timed.value("verdict", ""), "rejected") << timed.dump();
  EXPECT_EQ(timed.value("rule", ""), "timing-recheck") << timed.dump();
  EXPECT_EQ(timed.value("message", "").rfind("rank 1: ", 0), 0u) << timed.dump();

  const auto& references = lines.at("rank_reads_the_references_folder.py");
  EXPECT_EQ(references.value("verdict", ""), "correct") << "a rank saw the references' folder: " << references.dump();

  const auto& outside = lines.at("rank_reaches_for_the_machine.py");
  EXPECT_EQ(outside.value("verdict", ""), "correct") << "a rank reached the machine's loopback: " << outside.dump();
  std::fprintf(stderr, "seven multi-rank jobs in %.1f s\n", seconds);
}

// A rank that hangs: the job ends at its limit as `timeout`, naming rank 1 (or both ranks, where
// rank 0's worker ran out of time too, waiting for it), and kforge goes on (exit 0, its line out).
TEST(CpuRanks, AHungRankEndsTheJobAtItsLimit) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--timeout", "20", "--json", "--problem",
                       kProblem, source_path("tests/ranks/rank1_hangs.py")});
  if (r.err.find("gives none") != std::string::npos)
    GTEST_SKIP() << "this machine allows no private network namespace: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.lines_by_candidate();
  ASSERT_EQ(lines.size(), 1u) << r.out << r.err;
  const auto& hung = lines.at("rank1_hangs.py");
  EXPECT_EQ(hung.value("verdict", ""), "timeout") << hung.dump();
  const std::string message = hung.value("message", "");
  EXPECT_TRUE(message.rfind("rank 1: ", 0) == 0 || message.rfind("ranks 0, 1 ran out of time", 0) == 0) << message;
  EXPECT_LT(hung.value("wall_s", 1e9), 40.0) << hung.dump();
}

// Level 7 on the CPU: every problem's identity candidate (ModelNew = Model) is judged correct, each
// rank's outputs compared by its own worker. (Its speedups are not asserted: four processes and
// gloo's threads on CI's two cores time far from 1.00; the level's identity target is the
// two-GPU machine's.)
TEST(CpuRanks, EveryLevelSevenIdentityIsCorrect) {
  TempDir dir;
  int problems = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_path("problems/level7"))) {
    if (entry.path().extension() != ".py") continue;
    const std::string name = entry.path().stem().string();
    dir.write("level7/" + name + "/identity.py", read_file(entry.path().string()) + "\n\nModelNew = Model\n");
    ++problems;
  }
  ASSERT_GE(problems, 12);
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--timeout", "180", "--max-time", "0.3",
                       "--min-time", "0", "--min-samples", "5", "--json", dir.path().string()});
  if (r.err.find("gives none") != std::string::npos)
    GTEST_SKIP() << "this machine allows no private network namespace: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(static_cast<int>(lines.size()), problems) << r.out << r.err;
  for (const auto& j : lines) {
    EXPECT_EQ(j.value("verdict", ""), "correct") << j.dump();
    EXPECT_TRUE(j.contains("speedup") && j["speedup"].is_number()) << j.dump();
  }
}

// What the judge cannot do yet says so: a multi-rank problem asked for on a GPU run.
TEST(CpuRanks, AGpuRunSaysTheJudgeRunsOnTheCpuSoFar) {
  TempDir dir;
  const std::string identity = dir.write(
      "identity.py", read_file(source_path("problems/level7/2_Row_Parallel_Linear_AllReduce.py")) + "\n\nModelNew = Model\n");
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cuda", "--problem", kProblem, identity});
  EXPECT_NE(r.exit_code, 0);
  if (r.err.find("no CUDA device") != std::string::npos || r.err.find("needs a GPU") != std::string::npos ||
      r.err.find("evaluates its candidates on the CPU so far") != std::string::npos)
    SUCCEED();
  else
    ADD_FAILURE() << r.err;
}

}  // namespace
}  // namespace kforge::testing
