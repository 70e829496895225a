// Native candidates (include/kforge/candidate.h) end to end on the CPU, and `kforge build`.
#include <gtest/gtest.h>

#include <fstream>

#include "common/files.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

nlohmann::json native_expectations() {
  return nlohmann::json::parse(read_file(source_path("tests/candidates/native/expected.json")));
}

TEST(CpuNative, EveryCandidateGetsItsVerdict) {
  TempDir dir;
  // Builds go to a private cache, so the first run really compiles.
  ::setenv("XDG_CACHE_HOME", dir.file("cache").c_str(), 1);
  auto expected = native_expectations();
  std::map<std::string, std::vector<std::string>> by_problem;
  for (const auto& [file, e] : expected.items())
    if (!e["gpu_only"].get<bool>()) by_problem[e["problem"].get<std::string>()].push_back(file);
  size_t checked = 0;
  for (auto& [problem, files] : by_problem) {
    std::sort(files.begin(), files.end());  // cpp_name_clash_a before _b, in one worker
    std::vector<std::string> args{"--db", dir.file("k.db"), "eval", "--device", "cpu", "--max-time", "0.3",
                                  "--min-time", "0", "--json", "--problem", source_path(problem)};
    for (const auto& f : files) args.push_back(source_path("tests/candidates/native/" + f));
    auto r = run_kforge(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto lines = r.json_lines();
    ASSERT_EQ(lines.size(), files.size()) << r.out << r.err;
    for (const auto& line : lines) {
      std::string path = line["candidate"];
      std::string file = path.substr(path.find_last_of('/') + 1);
      EXPECT_EQ(line["verdict"], expected[file]["verdict"]) << file << ": " << line["message"];
      ++checked;
    }
  }
  EXPECT_GE(checked, 9u);
  ::unsetenv("XDG_CACHE_HOME");
}

TEST(CpuNative, DiagnosticsPointIntoTheCandidate) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--problem",
                       source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"),
                       source_path("tests/candidates/native/cpp_syntax_error.cpp"),
                       source_path("tests/candidates/native/cpp_unknown_version.cpp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 2u);
  std::string syntax = lines[0]["message"];
  EXPECT_NE(syntax.find("cpp_syntax_error.cpp:8: error:"), std::string::npos) << syntax;
  EXPECT_EQ(syntax.find("candidate.cpp"), std::string::npos) << syntax;  // the build folder's name stays hidden
  EXPECT_NE(lines[1]["message"].get<std::string>().find("interface version 7"), std::string::npos);
}

// A folder outside the layout builds nothing, and says why instead of exiting silently.
TEST(CpuNative, BuildAheadNamesFilesOutsideTheLayout) {
  TempDir dir;
  dir.write("flat/relu.py", read_file(source_path("tests/candidates/identity.py")));
  auto r = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("flat")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.json_lines().empty()) << r.out;
  EXPECT_NE(r.err.find("relu.py matches no problem layout (level<L>/<id>_<Name>/<file>.py"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no candidate under"), std::string::npos) << r.err;
}

TEST(CpuNative, BuildAheadWithoutAGpu) {
  TempDir dir;
  ::setenv("XDG_CACHE_HOME", dir.file("cache").c_str(), 1);
  dir.write("run/level1/1_Tiny_Add_ReLU/add_relu.cpp", read_file(source_path("tests/candidates/native/cpp_add_relu.cpp")));
  dir.write("run/level1/1_Tiny_Add_ReLU/broken.cpp", read_file(source_path("tests/candidates/native/cpp_syntax_error.cpp")));
  bool have_nvcc = std::filesystem::exists("/usr/local/cuda/bin/nvcc") || std::getenv("CUDA_HOME");
  if (have_nvcc)
    dir.write("run/level1/1_Tiny_Add_ReLU/add_relu.cu", read_file(source_path("tests/candidates/native/cuda_add_relu.cu")));
  auto first = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("run")});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  std::map<std::string, std::string> status;
  for (const auto& l : first.json_lines()) status[l["candidate"]] = l["status"];
  EXPECT_EQ(status["level1/1_Tiny_Add_ReLU/add_relu.cpp"], "built");
  EXPECT_EQ(status["level1/1_Tiny_Add_ReLU/broken.cpp"], "compile_error");
  if (have_nvcc) {
    EXPECT_EQ(status["level1/1_Tiny_Add_ReLU/add_relu.cu"], "built") << first.out;
  }
  auto second = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("run")});
  EXPECT_EQ(second.json_lines().size(), first.json_lines().size()) << second.out;
  for (const auto& l : second.json_lines()) {
    if (l["candidate"] != "level1/1_Tiny_Add_ReLU/broken.cpp") {
      EXPECT_EQ(l["status"], "cached") << l.dump();
    }
  }

  // The evaluation that follows finds the build in the cache.
  auto eval = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.2", "--suite",
                          source_path("tests/problems"), dir.file("run")});
  ASSERT_EQ(eval.exit_code, 0) << eval.err;
  size_t seen = 0;  // the C++ candidate must be among the results, not merely pass if present
  for (const auto& l : eval.json_lines()) {
    if (l["candidate"] != "level1/1_Tiny_Add_ReLU/add_relu.cpp") continue;
    ++seen;
    EXPECT_EQ(l["verdict"], "correct") << l.dump();
  }
  EXPECT_EQ(seen, 1u) << eval.out;
  ::unsetenv("XDG_CACHE_HOME");
}

}  // namespace
}  // namespace kforge::testing
