// The rules of `rejected` verdicts: the registry (src/core/rules.hpp) and docs/evaluation.md's
// verdict table name the same rules, each once.
#include "core/rules.hpp"

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
