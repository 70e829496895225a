// The corpus and the shipped solutions on a real CUDA device (label gpu; skipped without one).
#include <gtest/gtest.h>

#include "pool/devices.hpp"
#include "support/command.hpp"
#include "support/corpus.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

#define REQUIRE_GPU()                                                                  \
  if (probe_cuda_devices().count == 0) GTEST_SKIP() << "no CUDA device on this machine"

const std::vector<std::string> kQuick{"--device", "cuda:0", "--max-time", "1", "--json"};

std::string file_of(const nlohmann::json& line) {
  std::string c = line.at("candidate");
  return c.substr(c.find_last_of('/') + 1);
}

TEST(GpuCorpus, EveryCandidateGetsItsVerdict) {
  REQUIRE_GPU();
  TempDir dir;
  auto expected = load_corpus_expectations();
  std::vector<std::string> args{"--db", dir.file("k.db"), "eval"};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.insert(args.end(), {"--timeout", "60", "--problem", source_path("tests/problems/level1/1_Tiny_Add_ReLU.py")});
  // The illegal access first: the worker must come back and judge the rest correctly.
  args.push_back(source_path("tests/candidates/cuda_illegal_address.py"));
  for (const auto& [file, e] : expected)
    if (file != "cuda_illegal_address.py") args.push_back(source_path("tests/candidates/" + file));
  auto r = run_kforge(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), expected.size()) << r.out << r.err;
  for (const auto& line : lines) {
    std::string file = file_of(line);
    EXPECT_EQ(line["verdict"], expected[file].verdict) << file << ": " << line["message"];
  }
}

TEST(GpuDemo, ShippedSolutionsOnGpu) {
  REQUIRE_GPU();
  TempDir dir;
  std::vector<std::string> args{"--db", dir.file("k.db"), "eval"};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.push_back(source_path("solutions"));
  auto r = run_kforge(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_GE(lines.size(), 15u) << r.out << r.err;
  for (const auto& l : lines) {
    bool wrong = file_of(l).starts_with("wrong_");
    EXPECT_EQ(l["verdict"], wrong ? "incorrect" : "correct") << l["candidate"] << ": " << l["message"];
  }
}

}  // namespace
}  // namespace kforge::testing

namespace kforge::testing {
namespace {

TEST(GpuNative, CudaCandidatesGetTheirVerdicts) {
  REQUIRE_GPU();
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cuda:0", "--max-time", "1", "--json", "--problem",
                       source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"),
                       source_path("tests/candidates/native/cuda_add_relu.cu"),
                       source_path("tests/candidates/native/cuda_no_kernel.cu"),
                       source_path("tests/candidates/native/cpp_add_relu.cpp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> verdict;
  for (const auto& l : r.json_lines()) verdict[file_of(l)] = l["verdict"];
  EXPECT_EQ(verdict["cuda_add_relu.cu"], "correct");
  EXPECT_EQ(verdict["cuda_no_kernel.cu"], "compile_error");
  EXPECT_EQ(verdict["cpp_add_relu.cpp"], "load_error");  // host code: --device cpu runs it
}

}  // namespace
}  // namespace kforge::testing
