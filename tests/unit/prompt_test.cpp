// Prompts and code extraction: templates fill every slot or say which one they lack; the
// candidate is the last complete block in the format asked for; `kforge prompt` prints what a
// model would get.
#include <gtest/gtest.h>

#include <fstream>

#include "common/errors.hpp"
#include "generate/code_extraction.hpp"
#include "generate/prompt_template.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::generate {
namespace {

TEST(PromptTemplate, FillsEverySlot) {
  EXPECT_EQ(render("a {{x}} b {{ y }}{{x}}", "t.md", {{"x", "1"}, {"y", "two"}}), "a 1 b two1");
  EXPECT_EQ(render("no slots", "t.md", {}), "no slots");
}

TEST(PromptTemplate, AnUnknownVariableNamesFileLineAndTheKnownOnes) {
  try {
    render("line one\nline {{problem_sourse}}\n", "prompts/cuda.md", {{"problem_source", "..."}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "prompts/cuda.md:2: unknown variable {{problem_sourse}} (known: problem_source)");
  }
  EXPECT_THROW(render("{{open", "t.md", {}), Error);
}

TEST(CodeExtraction, TheLastCompleteBlockOfTheFormat) {
  const std::string answer =
      "Plan:\n```cuda\n// first try\n```\nBetter:\n```python\nprint('not this')\n```\n```cu\n__global__ void k() {}\n```\n"
      "Explanation ```cuda\n// a block cut off by max_tokens";
  auto e = extract_code(answer, "cuda");
  ASSERT_EQ(e.outcome, "ok") << e.message;
  EXPECT_EQ(*e.code, "__global__ void k() {}\n");
  auto py = extract_code(answer, "kernelbench");
  ASSERT_EQ(py.outcome, "ok");
  EXPECT_EQ(*py.code, "print('not this')\n");
}

TEST(CodeExtraction, NoCodeAndWrongFormatAreSaidAsSuch) {
  EXPECT_EQ(extract_code("I cannot help with that.", "cuda").outcome, "no_code");
  EXPECT_EQ(extract_code("```cuda\nnever closed", "cuda").outcome, "no_code");
  auto wrong = extract_code("```python\nimport torch\n```\n", "cuda");
  EXPECT_EQ(wrong.outcome, "wrong_format");
  EXPECT_FALSE(wrong.code);
  EXPECT_NE(wrong.message.find("the answer's blocks are python"), std::string::npos) << wrong.message;
}

TEST(PromptCommand, PrintsTheProblemTheFormatTheRulesAndAnExample) {
  testing::TempDir dir;
  auto r = testing::run_kforge({"--db", dir.file("none.db"), "prompt", "level1/2", "--format", "cuda",
                                "--fallback", "strict"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("[system]\n", 0), 0u) << r.out.substr(0, 200);
  EXPECT_NE(r.out.find("[user]\n"), std::string::npos);
  EXPECT_NE(r.out.find("KFORGE_CANDIDATE(1)"), std::string::npos);        // the format
  EXPECT_NE(r.out.find("(level1/2_ReLU)"), std::string::npos);            // the problem
  EXPECT_NE(r.out.find("class Model(nn.Module)"), std::string::npos);    // its source
  EXPECT_NE(r.out.find("policy `strict`"), std::string::npos);           // the rules
  EXPECT_NE(r.out.find("A correct and faster candidate for level1/2_ReLU"), std::string::npos);  // the example
  EXPECT_NE(r.out.find("__global__"), std::string::npos);
  EXPECT_NE(r.out.find("Not measured on this machine yet"), std::string::npos);  // no stored rates
  EXPECT_EQ(r.out.find("{{"), std::string::npos) << "an unfilled slot";
  EXPECT_EQ(r.out.find("training problem"), std::string::npos) << "an inference problem's rules say nothing of training";
}

// A training problem's rules say what is judged: the step, the gradients, the parameters kept.
TEST(PromptCommand, ATrainingProblemsRulesSayTheStepIsJudged) {
  testing::TempDir dir;
  auto r = testing::run_kforge({"--db", dir.file("none.db"), "prompt", "level6/15", "--format", "cuda"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("This is a training problem"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gradient of every\n  trainable parameter"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Forward and backward are timed together"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("{{"), std::string::npos) << "an unfilled slot";
}

TEST(PromptCommand, AnEditedTemplateWithATypoIsRefused) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.file("prompts"));
  for (const char* name : {"system.md", "rules.md"})
    std::filesystem::copy_file(testing::source_path(std::string("prompts/") + name), dir.file(std::string("prompts/") + name));
  std::ofstream(dir.file("prompts/cuda.md")) << "Speed up {{problem_id}}:\n{{problem_src}}\n";
  auto r = testing::run_kforge({"--db", dir.file("none.db"), "prompt", "level1/19", "--prompts", dir.file("prompts")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cuda.md:2: unknown variable {{problem_src}}"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kforge::generate
