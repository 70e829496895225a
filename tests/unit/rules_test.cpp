// The rules of `rejected` verdicts: the registry (src/core/rules.hpp) and docs/evaluation.md's
// verdict table name the same rules, each once.
#include "core/rules.hpp"
#include "core/tolerances.hpp"

#include <fstream>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "common/files.hpp"
#include "support/command.hpp"

namespace kforge {
namespace {

TEST(Rules, EachRuleOnce) {
  std::set<std::string_view> seen;
  for (const auto& r : rules::kAll) {
    EXPECT_TRUE(seen.insert(r.name).second) << r.name;
    EXPECT_FALSE(r.checks.empty()) << r.name;
    EXPECT_TRUE(rules::known(r.name));
  }
  EXPECT_FALSE(rules::known("made-up"));
  EXPECT_FALSE(rules::known(""));
}

TEST(Rules, TheEvaluationDocListsTheRegistry) {
  const std::string doc = read_file(testing::source_path("docs/evaluation.md"));
  const auto row = doc.find("| `rejected` |");
  ASSERT_NE(row, std::string::npos) << "docs/evaluation.md has no `rejected` row in its verdict table";
  const std::string line = doc.substr(row, doc.find('\n', row) - row);
  std::set<std::string> documented;
  const std::regex name("`([a-z]+(-[a-z0-9]+)+)`");
  for (std::sregex_iterator it(line.begin(), line.end(), name), end; it != end; ++it) documented.insert((*it)[1]);
  std::set<std::string> registered;
  for (const auto& r : rules::kAll) registered.insert(std::string(r.name));
  EXPECT_EQ(documented, registered) << line;
}

}  // namespace
}  // namespace kforge

namespace kforge {
namespace {

// docs/evaluation.md's training section quotes the order noise each comparison admits; the
// figures are src/core/tolerances.hpp's, and this holds the two together.
TEST(Tolerances, TheEvaluationDocQuotesTheOrderNoise) {
  const std::string doc = read_file(testing::source_path("docs/evaluation.md"));
  const auto start = doc.find("- **Tolerances.**");
  ASSERT_NE(start, std::string::npos) << "docs/evaluation.md has no training tolerances paragraph";
  const std::string paragraph = doc.substr(start, doc.find("- **The fp64 check**", start) - start);
  auto quoted = [&](int log2) { return paragraph.find("2^" + std::to_string(log2) + " ") != std::string::npos; };
  EXPECT_TRUE(quoted(kFp32GradientOrderNoiseLog2)) << paragraph;
  EXPECT_TRUE(quoted(kHalfGradientOrderNoiseLog2)) << paragraph;
  EXPECT_NE(paragraph.find("(an output 2^" + std::to_string(kFp32OrderNoiseLog2) + ")"), std::string::npos) << paragraph;
  EXPECT_EQ(share_of_largest(-14), 1.0 / 16384);
  EXPECT_TRUE(quoted(kFp32GradientNormErrorLog2)) << paragraph;
}

// The lint judges a problem by what the evaluation admits of a gradient: its constants are these.
TEST(Tolerances, TheLintUsesTheEvaluationsGradientTolerances) {
  const std::string lint = read_file(testing::source_path("python/kforge_lint.py"));
  auto has = [&](const std::string& text) { return lint.find(text) != std::string::npos; };
  auto entry = [](const char* dtype, int log2) { return std::string("\"") + dtype + "\": 2.0 ** " + std::to_string(log2); };
  EXPECT_TRUE(has("GRADIENT_ORDER_NOISE = {" + entry("fp32", kFp32GradientOrderNoiseLog2) + ", " +
                  entry("fp16", kHalfGradientOrderNoiseLog2) + ", " + entry("bf16", kHalfGradientOrderNoiseLog2) + "}"));
  EXPECT_TRUE(has("GRADIENT_NORM_ERROR = {" + entry("fp32", kFp32GradientNormErrorLog2) + ", " +
                  entry("fp16", kHalfGradientNormErrorLog2) + ", " + entry("bf16", kHalfGradientNormErrorLog2) + "}"));
}

}  // namespace
}  // namespace kforge

