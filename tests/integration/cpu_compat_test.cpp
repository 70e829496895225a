// Compatibility with an upstream KernelBench checkout (issue 5): its KernelBench/level1..3 folders
// load as a suite unchanged (--suite), with upstream's ids and names, and a run folder named the
// way upstream's generation names candidates (level_<L>_problem_<P>_sample_<S>_kernel.py)
// evaluates against it. The checkout is a miniature written in upstream's format
// (tests/problems/upstream_layout/README.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

const char* const kCheckout = "tests/problems/upstream_layout/KernelBench";

TEST(Compat, UpstreamCheckoutLoadsAsASuite) {
  auto r = run_kforge({"problems", "list", "--suite", source_path(kCheckout), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::map<std::string, std::string> names;
  for (const auto& j : r.json_lines()) names[j.at("id")] = j.at("name");
  EXPECT_EQ(names, (std::map<std::string, std::string>{{"level1/19_ReLU", "ReLU"},
                                                       {"level2/1_Conv2D_ReLU_BiasAdd", "Conv2D_ReLU_BiasAdd"},
                                                       {"level3/1_MLP", "MLP"}}));
}

TEST(Compat, UpstreamRunFolderEvaluatesAgainstTheCheckout) {
  TempDir dir;
  const std::filesystem::path run = dir.file("runs/identity");
  std::filesystem::create_directories(run);
  // Each candidate is its problem with ModelNew = Model, saved under upstream's generation name.
  const std::map<std::string, std::string> files{{"level1/19_ReLU.py", "level_1_problem_19_sample_0_kernel.py"},
                                                 {"level2/1_Conv2D_ReLU_BiasAdd.py", "level_2_problem_1_sample_0_kernel.py"},
                                                 {"level3/1_MLP.py", "level_3_problem_1_sample_0_kernel.py"}};
  for (const auto& [problem, candidate] : files) {
    std::ifstream in(source_path(std::string(kCheckout) + "/" + problem));
    std::string source((std::istreambuf_iterator<char>(in)), {});
    ASSERT_FALSE(source.empty()) << problem;
    std::ofstream(run / candidate) << source << "\n\nModelNew = Model\n";
  }
  // Without --suite these would be matched to the built-in suite's level1/19 and the rest, other
  // problems: refused, with a message that names --suite.
  auto wrong = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", run.string()});
  EXPECT_EQ(wrong.exit_code, 2) << wrong.out << wrong.err;
  EXPECT_NE(wrong.err.find("3 file(s)"), std::string::npos) << wrong.err;
  EXPECT_NE(wrong.err.find("Give --suite with upstream's problems"), std::string::npos) << wrong.err;

  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--max-time", "0.3", "--json", "--suite",
                       source_path(kCheckout), run.string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::map<std::string, std::string> verdicts;
  for (const auto& j : r.json_lines()) verdicts[j.at("problem")] = j.at("verdict");
  EXPECT_EQ(verdicts, (std::map<std::string, std::string>{{"level1/19_ReLU", "correct"},
                                                          {"level2/1_Conv2D_ReLU_BiasAdd", "correct"},
                                                          {"level3/1_MLP", "correct"}}))
      << r.out;
}

}  // namespace
}  // namespace kforge::testing
