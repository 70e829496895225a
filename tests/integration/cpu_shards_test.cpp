// --shard for kforge run and kforge agent (issue 22): the shards of a study, each into a store of
// its own, cover every problem once, merge into one named run, and a shard run again with the same
// command goes on with its run instead of paying again. Scripted models on loopback, real builds
// and a real CPU worker.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "store/sqlite.hpp"
#include "support/command.hpp"
#include "support/fake_model_server.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

std::string add_relu_answer() {
  std::ifstream in(source_path("tests/candidates/native/cpp_add_relu.cpp"));
  return "Here is the kernel:\n```cpp\n" + std::string(std::istreambuf_iterator<char>(in), {}) + "```\n";
}

void write_model(const TempDir& dir, const FakeModelServer& server) {
  std::ofstream(dir.file("kforge.toml")) << "[models.scripted]\napi = \"openai\"\nendpoint = \"" << server.endpoint()
                                         << "\"\nmodel = \"scripted-coder\"\nprice_in = 2.0\nprice_out = 6.0\n"
                                            "concurrency = 1\nretries = 0\n";
}

long long count(const std::string& db, const std::string& sql) {
  sqlite::Database d(db);
  auto s = d.prepare(sql);
  return s.step() ? s.int_at(0) : -1;
}

// The same arguments for every shard but --db and --shard, as kforge slurm submit runs them.
std::vector<std::string> shard_args(const TempDir& dir, int shard, std::vector<std::string> command) {
  std::vector<std::string> args{"--db", dir.file("shard-" + std::to_string(shard) + ".db")};
  args.insert(args.end(), command.begin(), command.end());
  args.insert(args.end(), {"--shard", std::to_string(shard) + "/2", "--config", dir.file("kforge.toml")});
  return args;
}

TEST(CpuShards, RunShardsCoverEveryProblemOnceAndMergeIntoOneRun) {
  TempDir dir;
  FakeModelServer server;
  write_model(dir, server);
  for (int i = 0; i < 4; ++i) server.script(FakeModelServer::openai_stream(add_relu_answer(), 2, 1000, 300));
  const std::vector<std::string> run{"run", "--model", "scripted", "--suite", source_path("tests/problems"), "--level", "1",
                                     "--format", "cpp", "--device", "cpu", "--max-time", "0.2", "--out", dir.file("runs"),
                                     "--name", "study"};
  for (int shard : {0, 1}) {
    auto r = run_kforge(shard_args(dir, shard, run));
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("shard " + std::to_string(shard) + "/2: 2 of 4 problems"), std::string::npos) << r.err;
    // Each shard's candidates in a folder of its own: its evaluation sees only them.
    EXPECT_TRUE(std::filesystem::is_directory(dir.file("runs/shard-" + std::to_string(shard)))) << r.out;
  }
  EXPECT_EQ(server.requests().size(), 4u);

  // Shard 0 again, the same command (a requeued task): its run goes on, nothing is paid again.
  auto again = run_kforge(shard_args(dir, 0, run));
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.err.find("going on with run 1 ('study')"), std::string::npos) << again.err;
  EXPECT_EQ(server.requests().size(), 4u);
  EXPECT_EQ(count(dir.file("shard-0.db"), "SELECT count(*) FROM run_evaluations"), 2);

  auto merged = run_kforge({"merge", dir.file("shard-0.db"), dir.file("shard-1.db"), "--into", dir.file("all.db")});
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  EXPECT_EQ(count(dir.file("all.db"), "SELECT count(*) FROM runs"), 1);
  auto report = nlohmann::json::parse(run_kforge({"--db", dir.file("all.db"), "report", "study", "--json"}).out);
  EXPECT_EQ(report["fast_p"]["level1"]["n"], 4) << report.dump(2);
  EXPECT_EQ(report["fast_p"]["level1"]["problems"], 4) << report.dump(2);
}

TEST(CpuShards, AgentShardsSplitTheProblemsAndARerunGoesOn) {
  TempDir dir;
  FakeModelServer server;
  write_model(dir, server);
  for (int i = 0; i < 2; ++i) server.script(FakeModelServer::openai_stream(add_relu_answer(), 2, 1000, 300));
  const std::vector<std::string> agent{"agent", "--model", "scripted", "--suite", source_path("tests/problems"),
                                       "--problem", "level1/1-2", "--format", "cpp", "--device", "cpu", "--max-time",
                                       "0.2", "--attempts", "1", "--no-reverify", "--out", dir.file("agent"),
                                       "--name", "search"};
  for (int shard : {0, 1}) {
    auto r = run_kforge(shard_args(dir, shard, agent));
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("shard " + std::to_string(shard) + "/2: 1 of 2 problems"), std::string::npos) << r.err;
    EXPECT_EQ(count(dir.file("shard-" + std::to_string(shard) + ".db"), "SELECT count(*) FROM agent_nodes"), 1);
  }
  auto again = run_kforge(shard_args(dir, 1, agent));
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("going on with run 1 ('search')"), std::string::npos) << again.out;
  EXPECT_EQ(server.requests().size(), 2u);  // the attempt budget was spent: nothing asked again
  EXPECT_EQ(count(dir.file("shard-1.db"), "SELECT count(*) FROM agent_nodes"), 1);

  ASSERT_EQ(run_kforge({"merge", dir.file("shard-0.db"), dir.file("shard-1.db"), "--into", dir.file("all.db")}).exit_code, 0);
  EXPECT_EQ(count(dir.file("all.db"), "SELECT count(*) FROM runs"), 1);
  EXPECT_EQ(count(dir.file("all.db"), "SELECT count(DISTINCT problem_hash) FROM agent_nodes"), 2);
}

}  // namespace
}  // namespace kforge::testing
