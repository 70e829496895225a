#include <gtest/gtest.h>

#include <fstream>

#include "common/errors.hpp"
#include "report/upstream_baselines.hpp"
#include "support/temp_dir.hpp"

namespace kforge::report {
namespace {

TEST(UpstreamBaselines, FileNamesAreUpstreams) {
  EXPECT_EQ(upstream_baseline_file("eager"), "baseline_time_torch.json");
  EXPECT_EQ(upstream_baseline_file("compile"), "baseline_time_torch_compile_inductor_default.json");
  EXPECT_EQ(upstream_baseline_file("max-autotune"), "baseline_time_torch_compile_inductor_max-autotune-no-cudagraphs.json");
  EXPECT_EQ(upstream_baseline_file("other"), "");
}

TEST(UpstreamBaselines, ReadsTheShapeAndRefusesOthers) {
  testing::TempDir dir;
  std::ofstream(dir.file("ok.json")) << R"({"level1": {"19_ReLU.py": {"mean": 0.5, "std": 0.01, "hardware": "H100"},
                                                      "1_Square_Matmul.py": {"mean": 2.25, "hardware": "H100"}},
                                           "level2": {"3_Conv.py": {"mean": 1.0, "hardware": "H100"}}})";
  const auto b = read_upstream_baselines(dir.file("ok.json"));
  EXPECT_EQ(b.mean_ms.size(), 3u);
  EXPECT_DOUBLE_EQ(b.mean_ms.at("level1/19_ReLU"), 0.5);
  EXPECT_DOUBLE_EQ(b.mean_ms.at("level2/3_Conv"), 1.0);
  EXPECT_EQ(b.hardware, "H100");

  std::ofstream(dir.file("mixed.json")) << R"({"level1": {"1_A.py": {"mean": 1, "hardware": "H100"},
                                                         "2_B.py": {"mean": 1, "hardware": "A100"}}})";
  EXPECT_EQ(read_upstream_baselines(dir.file("mixed.json")).hardware, "");

  for (const char* bad : {R"([1, 2])", R"({"level1": {"1_A.py": {"std": 1}}})", R"({"level1": {"1_A.py": {"mean": -1}}})",
                          R"({"results": {}})", "not json"}) {
    std::ofstream(dir.file("bad.json")) << bad;
    EXPECT_THROW(read_upstream_baselines(dir.file("bad.json")), Error) << bad;
  }
}

}  // namespace
}  // namespace kforge::report
