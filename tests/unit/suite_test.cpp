#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <sstream>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "suite/candidate.hpp"
#include "suite/problem.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge {
namespace {

using testing::TempDir;

constexpr const char* kValidProblem =
    "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x\n"
    "def get_inputs():\n    return [torch.randn(4)]\ndef get_init_inputs():\n    return []\n";

TEST(ProblemNames, Parse) {
  auto p = parse_problem_file_name("19_ReLU.py");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->first, 19);
  EXPECT_EQ(p->second, "ReLU");
  EXPECT_FALSE(parse_problem_file_name("ReLU.py"));
  EXPECT_FALSE(parse_problem_file_name("19_ReLU.txt"));
  EXPECT_EQ(parse_level_dir("level3"), 3);
  EXPECT_FALSE(parse_level_dir("levels"));
}

TEST(ProblemPrecision, ReadFromModuleLevelDeclaration) {
  EXPECT_EQ(declared_precision(kValidProblem), "");
  EXPECT_EQ(declared_precision(std::string("precision = \"bf16\"  # why\n") + kValidProblem), "bf16");
  EXPECT_EQ(declared_precision(std::string(kValidProblem) + "precision='fp16'\n"), "fp16");
  // Only a module-level assignment counts, not an indented one or a longer name.
  EXPECT_EQ(declared_precision(std::string(kValidProblem) + "    precision = \"bf16\"\nmy_precision = \"fp16\"\n"), "");
  EXPECT_THROW(declared_precision("precision = \"fp8\"\n"), Error);
}

TEST(ProblemFormat, NamesWhatIsMissing) {
  EXPECT_FALSE(problem_format_error(kValidProblem));
  auto err = problem_format_error("def get_inputs():\n    return []\n");
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("class Model"), std::string::npos);
  EXPECT_NE(err->find("get_init_inputs"), std::string::npos);
  EXPECT_EQ(err->find("get_inputs()"), std::string::npos);
}

TEST(Suite, LoadsLevelsAndReportsBadFiles) {
  TempDir dir;
  dir.write("level1/1_A.py", kValidProblem);
  dir.write("level1/2_B.py", kValidProblem);
  dir.write("level1/2_B_again.py", kValidProblem);  // duplicate id
  dir.write("level1/notes.txt", "hello");            // not Python
  dir.write("level1/README.md", "about level 1");    // a level's documentation: skipped silently
  dir.write("level1/helper.py", kValidProblem);      // no id
  dir.write("level2/1_C.py", kValidProblem);
  dir.write("other/1_D.py", kValidProblem);  // not a level folder: ignored
  SuiteLoad suite = load_suite(dir.path());
  ASSERT_EQ(suite.problems.size(), 3u);
  EXPECT_EQ(suite.problems[0].display_name(), "level1/1_A");
  EXPECT_EQ(suite.problems[1].id, 2);
  EXPECT_EQ(suite.problems[2].level, 2);
  ASSERT_EQ(suite.errors.size(), 3u);
  std::string all;
  for (const auto& e : suite.errors) all += e + "\n";
  EXPECT_NE(all.find("duplicate id 2"), std::string::npos) << all;
  EXPECT_NE(all.find("not a Python file"), std::string::npos) << all;
  EXPECT_NE(all.find("helper.py: name is not"), std::string::npos) << all;
}

// The shipped suite: KernelBench's shape (100/100/50) plus the frontier level, the training level
// and the multi-rank level, every file in the format, with CPU sizes, level 5 declaring the precision it is meant
// for, and level 6's files training steps (but its optimizer step, a forward of its own).
TEST(Suite, ShippedSuiteIsCompleteAndWellFormed) {
  SuiteLoad suite = load_suite(builtin_suite_dir());
  std::string all;
  for (const auto& e : suite.errors) all += e + "\n";
  EXPECT_TRUE(suite.errors.empty()) << all;
  std::map<int, int> per_level;
  for (const auto& p : suite.problems) {
    ++per_level[p.level];
    EXPECT_FALSE(problem_format_error(p.source)) << p.display_name() << ": " << *problem_format_error(p.source);
    EXPECT_NE(p.source.find("\ncpu_sizes = {"), std::string::npos) << p.display_name() << " declares no cpu_sizes";
    if (p.level == 5) EXPECT_EQ(p.precision, "bf16") << p.display_name();
    else if (p.level == 6) EXPECT_TRUE(p.precision == "" || p.precision == "bf16") << p.display_name();
    else EXPECT_EQ(p.precision, "") << p.display_name();
    const bool training = p.source.find("\nmode = \"train\"\n") != std::string::npos;
    if (p.level == 6 && p.display_name() != "level6/43_Fused_AdamW_Step") EXPECT_TRUE(training) << p.display_name();
    else EXPECT_FALSE(training) << p.display_name();
    // Level 7 and only level 7 is multi-rank, at two ranks (what a two-GPU machine runs).
    EXPECT_EQ(p.world_size, p.level == 7 ? 2 : 1) << p.display_name();
  }
  EXPECT_EQ(per_level[1], 100);
  EXPECT_EQ(per_level[2], 100);
  EXPECT_EQ(per_level[3], 50);
  EXPECT_GE(per_level[5], 15);
  EXPECT_GE(per_level[6], 40);
  EXPECT_GE(per_level[7], 12);
}

// docs/suite.md's sizing table is tools/suite_table.py's output over baselines/H200/ (the store,
// the GPU lint's and SOL's outputs), and that holds an eager H200 time for every shipped problem
// at its current text: a problem changed without being measured again shows `-` and fails here
// (measure it: BASELINE_DB=baselines/H200/baselines.db tools/gpu-check.sh baseline, then run the tool).
TEST(Suite, DocsSizingTableIsTheCommittedH200Figures) {
  auto made = testing::run_command(
      {"/usr/bin/env", "python3", testing::source_path("tools/suite_table.py"), "--dir", testing::source_path("baselines/H200")});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::string doc = read_file(testing::source_path("docs/suite.md"));
  const std::string header = "| problem | precision | lint |";
  const auto start = doc.find(header);
  ASSERT_NE(start, std::string::npos) << "docs/suite.md has no sizing table";
  auto end = doc.find("\n\n", start);
  std::string table = doc.substr(start, end == std::string::npos ? std::string::npos : end + 1 - start);
  EXPECT_EQ(table, made.out) << "docs/suite.md's table differs from python3 tools/suite_table.py's output";

  const size_t shipped = load_suite(builtin_suite_dir()).problems.size();
  std::istringstream rows(made.out);
  std::string row;
  size_t problems = 0;
  while (std::getline(rows, row)) {
    if (row.rfind("| level", 0) != 0) continue;
    ++problems;
    // | problem | precision | lint | lint ms | peak | eager | ...: the sixth cell is the eager baseline.
    std::vector<std::string> cells;
    std::stringstream split(row.substr(1));
    for (std::string cell; std::getline(split, cell, '|');) cells.push_back(cell);
    ASSERT_GE(cells.size(), 9u) << row;
    // Level 7 (multi-rank, issue 24) needs two GPUs to measure; none has been lent yet.
    if (row.rfind("| level7/", 0) == 0) continue;
    const auto starts = [&](std::initializer_list<const char*> ids) {
      return std::any_of(ids.begin(), ids.end(), [&](const char* id) { return row.rfind(std::string("| ") + id, 0) == 0; });
    };
    EXPECT_NE(cells[5], " - ") << "no H200 eager baseline at this problem's current text: " << row;
    // Its output's length is data-dependent, so its reference reads it on the host inside the call,
    // which the `host-bound` rule flags: open in docs/suite.md.
    if (starts({"level5/10_"}))
      EXPECT_EQ(cells[2], " host-bound ") << row;
    else
      EXPECT_EQ(cells[2], " ok ") << "not lint-clean on the H200: " << row;
  }
  EXPECT_EQ(problems, shipped);
}

// lint.txt rows gained the host's share in session 26 ("ok (15.61 ms, peak 1.4 GiB, host 0.42)",
// and on flagged rows before the rule; level 3's hold it since session 27, the rest not yet):
// tools/suite_table.py reads both forms into the same table.
TEST(Suite, TheSizingTableReadsLintRowsWithTheHostsShare) {
  TempDir dir;
  for (const char* name : {"baselines.db", "sol.txt"})
    std::filesystem::copy_file(testing::source_path(std::string("baselines/H200/") + name), dir.path() / name);
  std::string lint = read_file(testing::source_path("baselines/H200/lint.txt"));
  // Level 3's rows have the share already (linted again in session 27); these two do not.
  for (const std::string row : {"level1/1_Square_Matmul ", "level5/10_Paged_KV_Gather "}) {
    const size_t at = lint.find(row);
    ASSERT_NE(at, std::string::npos) << row;
    const size_t gib = lint.find(" GiB", at);
    ASSERT_NE(gib, std::string::npos) << row;
    lint.insert(gib + 4, ", host 0.42");
  }
  write_file_atomically(dir.path() / "lint.txt", lint);
  auto committed = testing::run_command({"/usr/bin/env", "python3", testing::source_path("tools/suite_table.py"), "--dir",
                                         testing::source_path("baselines/H200")});
  auto with_share = testing::run_command(
      {"/usr/bin/env", "python3", testing::source_path("tools/suite_table.py"), "--dir", dir.path().string()});
  ASSERT_EQ(with_share.exit_code, 0) << with_share.err;
  EXPECT_EQ(with_share.out, committed.out);
}

TEST(Suite, MissingFolderIsAnError) { EXPECT_THROW(load_suite("/nonexistent/kforge/suite"), Error); }

TEST(Suite, ResolvesPathsAndBuiltinIds) {
  TempDir dir;
  std::string file = dir.write("level1/19_ReLU.py", kValidProblem);
  SuiteLoad suite = load_suite(dir.path());
  EXPECT_EQ(resolve_problem("level1/19", suite).name, "ReLU");
  EXPECT_EQ(resolve_problem("level1/19_ReLU", suite).id, 19);
  EXPECT_EQ(resolve_problem(file, suite).level, 1);
  EXPECT_THROW(resolve_problem("level1/20", suite), UsageError);
  EXPECT_THROW(resolve_problem("relu", suite), UsageError);
}

TEST(Suite, ResolvesARangeOfIdsInIdOrder) {
  TempDir dir;
  dir.write("level1/19_ReLU.py", kValidProblem);
  dir.write("level1/3_Tanh.py", kValidProblem);
  dir.write("level1/25_Sigmoid.py", kValidProblem);
  dir.write("level2/5_Other.py", kValidProblem);
  SuiteLoad suite = load_suite(dir.path());
  auto range = resolve_problems("level1/1-20", suite);
  ASSERT_EQ(range.size(), 2u);
  EXPECT_EQ(range[0].id, 3);
  EXPECT_EQ(range[1].id, 19);
  EXPECT_EQ(resolve_problems("level1/19", suite).size(), 1u);  // one id as before
  EXPECT_THROW(resolve_problems("level1/20-24", suite), UsageError);  // holds none
  EXPECT_THROW(resolve_problems("level1/20-3", suite), UsageError);   // backwards
}

TEST(CandidateMatching, BothLayouts) {
  auto a = match_candidate_path("level1/19_ReLU/cuda_relu.py");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->level, 1);
  EXPECT_EQ(a->id, 19);
  auto b = match_candidate_path("runs/x/level_2_problem_17_sample_0_kernel.py");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->level, 2);
  EXPECT_EQ(b->id, 17);
  EXPECT_FALSE(match_candidate_path("level1/relu.py"));
  EXPECT_FALSE(match_candidate_path("level1/19_ReLU/deeper/x.py"));
  EXPECT_FALSE(match_candidate_path("level1/19_ReLU/notes.txt"));
}

TEST(CandidateMatching, NeedsCuda) {
  EXPECT_TRUE(candidate_needs_cuda("load_inline(name='x', cpp_sources=s, cuda_sources=c)"));
  EXPECT_TRUE(candidate_needs_cuda("import triton\n"));
  EXPECT_TRUE(candidate_needs_cuda("x = torch.zeros(3, device='cuda')"));
  EXPECT_FALSE(candidate_needs_cuda("import torch\nclass ModelNew(torch.nn.Module): pass\n"));
}

// Host code only: an extension of cpp_sources that nothing moves to or asks of the GPU.
TEST(CandidateMatching, HostCodeExtension) {
  EXPECT_TRUE(host_code_extension("from torch.utils.cpp_extension import load_inline\nm = load_inline(name='x', cpp_sources=s)"));
  EXPECT_TRUE(host_code_extension("m = torch.utils.cpp_extension.load(name='x', sources=['x.cpp'])"));
  EXPECT_FALSE(host_code_extension("m = load_inline(name='x', cpp_sources=s, cuda_sources=c)"));
  EXPECT_FALSE(host_code_extension("m = load_inline(name='x', cpp_sources=s)\ny = x.cuda()"));
  EXPECT_FALSE(host_code_extension("import torch\nclass ModelNew(torch.nn.Module): pass\n"));
}

// The hint comes before the dead process's output, which can run to kilobytes.
TEST(CandidateMatching, HostCodeHintComesBeforeTheProcessOutput) {
  const std::string died = "the candidate's process died (killed by signal 11 (Segmentation fault))";
  const std::string hinted = with_host_code_hint(died + "; its output ended with: Fatal Python error");
  EXPECT_TRUE(hinted.starts_with(died + "; its extension is host code only")) << hinted;
  EXPECT_TRUE(hinted.ends_with("; its output ended with: Fatal Python error")) << hinted;
  EXPECT_TRUE(with_host_code_hint(died).ends_with("or evaluate it with --device cpu"));
}

TEST(CandidateDiscovery, FindsAndSortsAndListsUnmatched) {
  TempDir dir;
  dir.write("level1/2_B/z.py", "x");
  dir.write("level1/2_B/a.py", "x");
  dir.write("level1/1_A/only.py", "x");
  dir.write("level_3_problem_4_sample_1_kernel.py", "x");
  dir.write("level1/2_B/__pycache__/a.cpython-311.py", "x");
  dir.write("stray.py", "x");
  Discovery d = discover_candidates(dir.path());
  ASSERT_EQ(d.candidates.size(), 4u);
  EXPECT_EQ(d.candidates[0].relative, "level1/1_A/only.py");
  EXPECT_EQ(d.candidates[1].relative, "level1/2_B/a.py");
  EXPECT_EQ(d.candidates[2].relative, "level1/2_B/z.py");
  EXPECT_EQ(d.candidates[3].key.level, 3);
  ASSERT_EQ(d.unmatched.size(), 1u);
  EXPECT_EQ(d.unmatched[0], "stray.py");
}

TEST(Candidate, MissingFileIsAnError) { EXPECT_THROW(load_candidate_file("/nonexistent/kforge/c.py"), Error); }

TEST(Candidate, DirectoryIsAnError) {
  TempDir dir;
  EXPECT_THROW(load_candidate_file(dir.path()), Error);
}

}  // namespace
}  // namespace kforge
