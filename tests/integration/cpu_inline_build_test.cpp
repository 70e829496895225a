// KernelBench load_inline candidates built through kforge's cache (python/kforge_inline.py,
// src/build/inline_build.cpp) with the real g++ and nvcc, no GPU: a C++ extension evaluated on the
// CPU, and a CUDA extension built ahead by `kforge build`, split into kernels and host part.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/files.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

// The cache entries of load_inline builds under `cache` (XDG_CACHE_HOME).
std::vector<nlohmann::json> inline_entries(const std::filesystem::path& cache) {
  std::vector<nlohmann::json> metas;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(cache / "kforge" / "build" / "objects", ec)) {
    auto meta = nlohmann::json::parse(read_file(e.path() / "meta.json"));
    if (meta["format"] == "load_inline") metas.push_back(meta);
  }
  return metas;
}

TEST(CpuInlineBuild, CppExtensionEvaluatesThroughKforgesCache) {
  TempDir dir;
  ::setenv("XDG_CACHE_HOME", dir.file("cache").c_str(), 1);
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.2", "--problem",
                       source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"),
                       source_path("tests/candidates/inline_cpp_correct.py")});
  ::unsetenv("XDG_CACHE_HOME");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0]["verdict"], "correct") << lines[0]["message"];
  auto entries = inline_entries(dir.file("cache"));
  ASSERT_EQ(entries.size(), 1u) << "the build went through kforge's cache, not torch's";
  EXPECT_TRUE(entries[0]["ok"].get<bool>());
  EXPECT_EQ(entries[0]["extra"]["strategy"], "host");
}

TEST(CpuInlineBuild, CudaExtensionIsSplitAndCached) {
  if (!std::filesystem::exists("/usr/local/cuda/bin/nvcc") && !std::getenv("CUDA_HOME"))
    GTEST_SKIP() << "no CUDA toolkit";
  TempDir dir;
  ::setenv("XDG_CACHE_HOME", dir.file("cache").c_str(), 1);
  dir.write("run/level1/1_Tiny_Add_ReLU/inline.py", read_file(source_path("tests/candidates/cuda_correct.py")));
  auto first = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("run")});
  auto second = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("run")});
  ::unsetenv("XDG_CACHE_HOME");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto lines = first.json_lines();
  ASSERT_EQ(lines.size(), 1u) << first.out;
  EXPECT_EQ(lines[0]["status"], "built") << lines[0].dump();
  EXPECT_NE(lines[0]["detail"].get<std::string>().find(": split"), std::string::npos) << lines[0].dump();
  auto again = second.json_lines();
  ASSERT_EQ(again.size(), 1u) << second.out;
  EXPECT_EQ(again[0]["status"], "cached") << again[0].dump();
  auto entries = inline_entries(dir.file("cache"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_FALSE(entries[0]["kernels"].empty()) << "ptxas resources of the kernel are kept";
}

}  // namespace
}  // namespace kforge::testing
