// kforge generate through the real binary against a model server on loopback: candidates written
// where kforge eval finds them, every call in the store, a resumed run that calls only for what
// is missing, a dry run that calls nothing, and the bad inputs (unknown model, missing key,
// server down) each said plainly with nothing lost.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <sqlite3.h>

#include "support/command.hpp"
#include "support/fake_model_server.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

void write_config(const TempDir& dir, const std::string& endpoint) {
  std::ofstream(dir.file("kforge.toml")) << "[models.test]\napi = \"openai\"\nendpoint = \"" << endpoint
                                         << "\"\nmodel = \"test-coder\"\nkey_env = \"KFORGE_TEST_GENERATE_KEY\"\n"
                                            "max_tokens = 1000\nprice_in = 1.0\nprice_out = 4.0\nconcurrency = 1\n"
                                            "retries = 2\n";
}

int rows(const std::string& db, const std::string& where = "1") {
  sqlite3* h = nullptr;
  sqlite3_open(db.c_str(), &h);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(h, ("SELECT COUNT(*) FROM model_calls WHERE " + where).c_str(), -1, &s, nullptr);
  int n = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : -1;
  sqlite3_finalize(s);
  sqlite3_close(h);
  return n;
}

const std::string kCuda = "Here it is:\n```cuda\n#include <kforge/candidate.h>\nKFORGE_CANDIDATE(1) { return 0; }\n```\n";

std::vector<std::string> generate(const TempDir& dir, std::vector<std::string> extra = {}, int samples = 2) {
  std::vector<std::string> args{"--db", dir.file("k.db"), "generate", "--model", "test", "--problem", "level1/2",
                                "--problem", "level1/4", "--samples", std::to_string(samples), "--out", dir.file("run")};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

class Generate : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("KFORGE_TEST_GENERATE_KEY", "sk-generate-secret", 1); }
  void TearDown() override { ::unsetenv("KFORGE_TEST_GENERATE_KEY"); }
};

TEST_F(Generate, WritesCandidatesRecordsCallsAndResumes) {
  TempDir dir;
  FakeModelServer server;
  write_config(dir, server.endpoint());
  server.script(FakeModelServer::openai_stream(kCuda, 3, 1000, 200));
  server.script(FakeModelServer::error(429, "slow down", {{"Retry-After", "0"}}));
  server.script(FakeModelServer::openai_stream(kCuda, 2, 1000, 300));
  server.script(FakeModelServer::openai_stream("I would rather explain the idea in words.", 2, 900, 50));
  server.script(FakeModelServer::openai_stream(kCuda, 1, 1100, 250));

  auto r = run_kforge(generate(dir));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 planned: 3 with a candidate, 1 without code, 0 failed; 4000 input and 800 output tokens, "
                       "$0.0072"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 attempts"), std::string::npos) << r.out;  // the 429, retried
  for (const char* file : {"run/level1/2_ReLU/test_sample0.cu", "run/level1/2_ReLU/test_sample1.cu",
                           "run/level1/4_Softmax_Rows/test_sample1.cu"})
    EXPECT_TRUE(std::filesystem::exists(dir.file(file))) << file << "\n" << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("run/level1/4_Softmax_Rows/test_sample0.cu")));
  EXPECT_EQ(rows(dir.file("k.db")), 4);
  EXPECT_EQ(rows(dir.file("k.db"), "outcome = 'no_code' AND answer LIKE 'I would rather%'"), 1);  // raw text kept
  EXPECT_EQ(rows(dir.file("k.db"), "answer LIKE '%sk-generate-secret%' OR prompt LIKE '%sk-generate-secret%'"), 0);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 5u);
  EXPECT_EQ(requests[0].body.at("model"), "test-coder");

  // Again: only the sample without a candidate is asked for.
  server.script(FakeModelServer::openai_stream(kCuda));
  auto again = run_kforge(generate(dir));
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("3 already generated"), std::string::npos) << again.out;
  EXPECT_EQ(server.requests().size(), 6u);
  EXPECT_TRUE(std::filesystem::exists(dir.file("run/level1/4_Softmax_Rows/test_sample0.cu")));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A batch resumes by the folder and the settings: a deleted file or a new --out is written again
// from the store without a call; a changed setting (the temperature) asks again for every
// sample; --force asks again whatever the store holds.
TEST_F(Generate, ResumesByTheFolderAndTheSettings) {
  TempDir dir;
  FakeModelServer server;
  write_config(dir, server.endpoint());
  for (int i = 0; i < 2; ++i) server.script(FakeModelServer::openai_stream(kCuda, 1, 1000, 200));
  ASSERT_EQ(run_kforge(generate(dir, {}, 1)).exit_code, 0);
  ASSERT_EQ(server.requests().size(), 2u);
  const std::string sample = dir.file("run/level1/2_ReLU/test_sample0.cu");
  const std::string kept = read_text(sample);
  std::filesystem::remove(sample);
  auto again = run_kforge(generate(dir, {}, 1));
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("written again from the store, no call"), std::string::npos) << again.out;
  EXPECT_EQ(read_text(sample), kept);
  auto other_folder = generate(dir, {}, 1);
  *(std::find(other_folder.begin(), other_folder.end(), "--out") + 1) = dir.file("other");
  auto elsewhere = run_kforge(other_folder);
  ASSERT_EQ(elsewhere.exit_code, 0) << elsewhere.out << elsewhere.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("other/level1/4_Softmax_Rows/test_sample0.cu"))) << elsewhere.out;
  EXPECT_EQ(server.requests().size(), 2u);  // nothing asked again

  // Another temperature: every sample is asked for again.
  std::ofstream(dir.file("kforge.toml"), std::ios::app) << "temperature = 0.2\n";
  for (int i = 0; i < 2; ++i) server.script(FakeModelServer::openai_stream(kCuda, 1, 1000, 200));
  auto warmer = run_kforge(generate(dir, {}, 1));
  ASSERT_EQ(warmer.exit_code, 0) << warmer.out << warmer.err;
  EXPECT_EQ(server.requests().size(), 4u) << warmer.out;
  // --force: asked again under the same settings.
  for (int i = 0; i < 2; ++i) server.script(FakeModelServer::openai_stream(kCuda, 1, 1000, 200));
  auto forced = run_kforge(generate(dir, {"--force"}, 1));
  ASSERT_EQ(forced.exit_code, 0) << forced.out << forced.err;
  EXPECT_EQ(server.requests().size(), 6u) << forced.out;
  EXPECT_EQ(rows(dir.file("k.db")), 6);
}

// A replay model answers from a store's recorded calls: the same candidates, no server, no cost.
TEST_F(Generate, ReplayReproducesARunWithoutAServer) {
  TempDir dir;
  FakeModelServer server;
  write_config(dir, server.endpoint());
  server.script(FakeModelServer::openai_stream(kCuda, 2, 700, 100));
  server.script(FakeModelServer::openai_stream("no code here", 1, 600, 10));
  ASSERT_EQ(run_kforge(generate(dir, {}, 1)).exit_code, 0);
  ASSERT_EQ(server.requests().size(), 2u);

  std::ofstream(dir.file("kforge.toml"), std::ios::app)
      << "\n[models.replayed]\napi = \"replay\"\nendpoint = \"k.db\"\nmodel = \"test\"\n";
  auto r = run_kforge({"--db", dir.file("replay.db"), "generate", "--config", dir.file("kforge.toml"), "--model",
                       "replayed", "--problem", "level1/2", "--problem", "level1/4", "--samples", "2", "--out",
                       dir.file("replayed")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(server.requests().size(), 2u);  // nothing asked of the server
  EXPECT_EQ(read_text(dir.file("replayed/level1/2_ReLU/replayed_sample0.cu")),
            read_text(dir.file("run/level1/2_ReLU/test_sample0.cu")));
  // Sample 1 was never recorded: said, counted as failed, the others unaffected.
  EXPECT_NE(r.out.find("not_recorded"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 planned: 1 with a candidate, 1 without code, 2 failed; 1300 input and 110 output tokens, "
                       "$0.0000"),
            std::string::npos)
      << r.out;
}

// KernelBench-format candidates get upstream's generation names; an answer in another language
// is recorded as wrong_format with its text.
TEST_F(Generate, PythonFormatsGetUpstreamNamesAndWrongFormatIsRecorded) {
  TempDir dir;
  FakeModelServer server;
  write_config(dir, server.endpoint());
  server.script(FakeModelServer::openai_stream("```python\nimport torch\nModelNew = None\n```\n"));
  server.script(FakeModelServer::openai_stream(kCuda));
  auto r = run_kforge(generate(dir, {"--format", "kernelbench"}, 1));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("run/level_1_problem_2_sample_0_kernel.py"))) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("run/level_1_problem_4_sample_0_kernel.py")));
  // The folder says its ids are the built-in suite's, so `kforge eval run` accepts these names.
  std::ifstream marker(dir.file("run/kforge-suite.txt"));
  std::string suite;
  std::getline(marker, suite);
  EXPECT_EQ(suite, "built-in");
  EXPECT_NE(r.out.find("wrong_format: asked for a kernelbench file"), std::string::npos) << r.out;
  EXPECT_EQ(rows(dir.file("k.db"), "outcome = 'wrong_format' AND answer LIKE '%KFORGE_CANDIDATE%'"), 1);
}

// A template with an unknown slot stops the command before any call, with the file and line.
TEST_F(Generate, ATemplateTypoStopsBeforeAnyCall) {
  TempDir dir;
  FakeModelServer server;
  write_config(dir, server.endpoint());
  std::filesystem::create_directories(dir.file("prompts"));
  for (const char* name : {"system.md", "rules.md"})
    std::filesystem::copy_file(source_path(std::string("prompts/") + name), dir.file(std::string("prompts/") + name));
  std::ofstream(dir.file("prompts/cuda.md")) << "Speed up {{problem_id}}:\n{{problem_src}}\n";
  auto r = run_kforge(generate(dir, {"--prompts", dir.file("prompts")}));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("cuda.md:2: unknown variable {{problem_src}}"), std::string::npos) << r.err;
  EXPECT_TRUE(server.requests().empty());
  EXPECT_FALSE(std::filesystem::exists(dir.file("run")));
}

TEST_F(Generate, DryRunCallsNothing) {
  TempDir dir;
  FakeModelServer server;
  write_config(dir, server.endpoint());
  ::unsetenv("KFORGE_TEST_GENERATE_KEY");  // a dry run needs no key
  auto r = run_kforge(generate(dir, {"--dry-run"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("dry run: 4 call(s) of test (test-coder)"), std::string::npos) << r.out;
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(Generate, BadInputsAreSaidAndLoseNothing) {
  TempDir dir;
  std::string endpoint;
  {
    FakeModelServer gone;
    endpoint = gone.endpoint();
  }
  write_config(dir, endpoint);
  auto unknown = run_kforge({"--db", dir.file("k.db"), "generate", "--model", "gpt9", "--problem", "level1/2"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown model 'gpt9'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("declares test"), std::string::npos) << unknown.err;

  ::unsetenv("KFORGE_TEST_GENERATE_KEY");
  auto no_key = run_kforge(generate(dir));
  EXPECT_EQ(no_key.exit_code, 1);
  EXPECT_NE(no_key.err.find("$KFORGE_TEST_GENERATE_KEY, which is not set"), std::string::npos) << no_key.err;

  ::setenv("KFORGE_TEST_GENERATE_KEY", "sk-generate-secret", 1);
  auto down = run_kforge(generate(dir, {}, 1));  // two calls, no server
  EXPECT_EQ(down.exit_code, 1) << "no call answered: " << down.err;
  EXPECT_NE(down.out.find("connection"), std::string::npos) << down.out;
  EXPECT_NE(down.out.find("2 failed"), std::string::npos) << down.out;
  EXPECT_EQ(rows(dir.file("k.db"), "outcome = 'connection'"), 2);
}

// A refused key fails every call alike: the batch stops after the first, without sending the rest,
// says why, and exits 1 (it used to send all of them and exit 0).
TEST_F(Generate, ARefusedKeyStopsTheBatchAtOnce) {
  TempDir dir;
  FakeModelServer server;
  write_config(dir, server.endpoint());
  server.script(FakeModelServer::error(401, "Incorrect API key provided"));
  for (int i = 0; i < 3; ++i) server.script(FakeModelServer::openai_stream(kCuda));
  auto r = run_kforge(generate(dir, {"--format", "cuda"}));  // four calls planned, one at a time
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(server.requests().size(), 1u) << r.out;
  EXPECT_NE(r.err.find("stopped after a call the provider refused"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("auth (401)"), std::string::npos) << r.err;
  EXPECT_EQ(rows(dir.file("k.db")), 1);
}

}  // namespace
}  // namespace kforge::testing

namespace kforge::testing {
namespace {

// Ctrl-C (SIGINT) while calls stream: kforge generate stops, exits 130, and keeps what finished
// (stored, its candidate written) and what the interrupted call had received (stored as cancelled).
TEST_F(Generate, CtrlCKeepsEveryFinishedCall) {
  TempDir dir;
  FakeModelServer server;
  write_config(dir, server.endpoint());
  server.script(FakeModelServer::openai_stream(kCuda));
  auto slow = FakeModelServer::openai_stream(kCuda, 20);
  slow.pause_ms = 300;  // about 7 s in all: interrupted long before its end
  server.script(slow);
  const auto args = generate(dir, {}, 1);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::freopen(dir.file("out.txt").c_str(), "w", stdout);
    std::vector<char*> argv{const_cast<char*>(KFORGE_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(KFORGE_BINARY, argv.data());
    ::_exit(127);
  }
  for (int i = 0; i < 100 && server.requests().size() < 2; ++i) ::usleep(50'000);
  ::usleep(800'000);  // the second call is streaming
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_EQ(rows(dir.file("k.db"), "outcome = 'ok'"), 1);
  EXPECT_EQ(rows(dir.file("k.db"), "outcome = 'cancelled' AND length(answer) > 0"), 1);
  EXPECT_TRUE(std::filesystem::exists(dir.file("run/level1/2_ReLU/test_sample0.cu")));
}

}  // namespace
}  // namespace kforge::testing
