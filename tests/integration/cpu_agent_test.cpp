// kforge agent end to end on the CPU: scripted models on loopback answer each attempt, real
// builds and a real CPU worker judge them, and the store keeps the tree. Native cpp candidates
// (tests/candidates/native/), on the test suite's Tiny_Add_ReLU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <thread>
#include <chrono>

#include "store/sqlite.hpp"
#include "support/command.hpp"
#include "support/fake_model_server.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string cpp_answer(const std::string& candidate) {
  return "Here is the kernel:\n```cpp\n" + file_text(source_path("tests/candidates/native/" + candidate)) + "```\n";
}

void write_models(const TempDir& dir, const FakeModelServer& server, const std::string& names = "scripted") {
  std::ofstream toml(dir.file("kforge.toml"));
  size_t at = 0;
  while (at <= names.size()) {
    size_t comma = names.find(',', at);
    std::string name = names.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    toml << "[models." << name << "]\napi = \"openai\"\nendpoint = \"" << server.endpoint() << "\"\nmodel = \"" << name
         << "-coder\"\nprice_in = 2.0\nprice_out = 6.0\nconcurrency = 1\ntemperature = 0.8\nretries = 0\n\n";
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
}

std::vector<std::string> agent_args(const TempDir& dir, std::vector<std::string> extra) {
  std::vector<std::string> args{"--db", dir.file("k.db"), "agent", "--suite", source_path("tests/problems"),
                                "--problem", "level1/1", "--device", "cpu", "--max-time", "0.3", "--out", dir.file("run")};
  if (std::find(extra.begin(), extra.end(), "--format") == extra.end()) extra.insert(extra.end(), {"--format", "cpp"});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CpuAgent, SerialChainFixesAFailureThenRefinesAndWritesTheBest) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_syntax_error.cpp"), 2, 1000, 300));
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_partial_write.cpp"), 2, 1200, 300));
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2, 1400, 300));
  server.script(FakeModelServer::openai_stream("I would keep it as it is.", 1, 1600, 20));

  auto r = run_kforge(agent_args(dir, {"--model", "scripted", "--policy", "serial", "--attempts", "4"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("attempt #1 (coder, scripted): compile_error"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #2 (debugger, parent #1, scripted): incorrect"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #3 (debugger, parent #2, scripted): correct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #4 (refiner, scripted): no_code"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stopped (4 attempts); best attempt #3 correct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("re-verified at"), std::string::npos) << r.out;

  // What each prompt carried: the failure and its source for the debugger (at a low temperature),
  // the speedup for the refiner.
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  auto user_text = [&](size_t i) {
    for (const auto& m : requests[i].body.at("messages"))
      if (m.at("role") == "user") return m.at("content").get<std::string>();
    return std::string();
  };
  EXPECT_EQ(user_text(0).find("## Your earlier attempt"), std::string::npos);
  EXPECT_NE(user_text(1).find("## What kforge found"), std::string::npos) << user_text(1);
  EXPECT_NE(user_text(1).find("verdict: compile_error"), std::string::npos) << user_text(1);
  EXPECT_NE(user_text(1).find(file_text(source_path("tests/candidates/native/cpp_syntax_error.cpp"))), std::string::npos);
  EXPECT_DOUBLE_EQ(requests[1].body.at("temperature").get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(requests[0].body.at("temperature").get<double>(), 0.8);
  EXPECT_NE(user_text(2).find("verdict: incorrect"), std::string::npos) << user_text(2);
  EXPECT_NE(user_text(3).find("It is correct. Make it faster"), std::string::npos) << user_text(3);
  EXPECT_NE(user_text(3).find("speedup over PyTorch eager: "), std::string::npos) << user_text(3);

  // The best, written out as made.
  EXPECT_EQ(file_text(dir.file("run/best/level1/1_Tiny_Add_ReLU/best.cpp")),
            file_text(source_path("tests/candidates/native/cpp_add_relu.cpp")));

  // The tree and the trajectory.
  auto show = run_kforge({"--db", dir.file("k.db"), "agent", "show", "1"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("level1/1_Tiny_Add_ReLU"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("  #1 round 1 coder (scripted): compile_error\n    #2 round 2 debugger (scripted): incorrect\n"
                          "      #3 round 3 debugger (scripted): correct "),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("        #4 round 4 refiner (scripted): no_code"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("trajectory"), std::string::npos) << show.out;

  // Merged into another store (twice: the second adds nothing), the run's tree reads the same:
  // every attempt once, with its parent and its evaluation.
  for (int i = 0; i < 2; ++i) {
    auto merged = run_kforge({"merge", dir.file("k.db"), "--into", dir.file("merged.db")});
    ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
    EXPECT_NE(merged.out.find(i == 0 ? "4 agent attempt(s)" : "0 agent attempt(s)"), std::string::npos) << merged.out;
  }
  auto merged_show = run_kforge({"--db", dir.file("merged.db"), "agent", "show", "1"});
  ASSERT_EQ(merged_show.exit_code, 0) << merged_show.err;
  EXPECT_EQ(merged_show.out, show.out);
}

TEST(CpuAgent, AResumedRunGoesOnFromItsTreeAndABudgetStopsIt) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_syntax_error.cpp"), 2, 1000, 300));
  auto first = run_kforge(agent_args(dir, {"--model", "scripted", "--attempts", "1", "--no-reverify"}));
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("stopped (1 attempts)"), std::string::npos) << first.out;

  // More room: the next attempt fixes the first (its parent), as an uninterrupted run would have.
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2, 1000, 300));
  auto resumed = run_kforge({"--db", dir.file("k.db"), "agent", "--resume", "1", "--attempts", "2"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("attempt #2 (debugger, parent #1, scripted): correct"), std::string::npos) << resumed.out;
  ASSERT_EQ(server.requests().size(), 2u);

  // A dollar budget smaller than one call: the run stops after its first round.
  TempDir other;
  write_models(other, server);
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2, 100000, 100000));
  auto capped = run_kforge(agent_args(other, {"--model", "scripted", "--attempts", "5", "--budget-usd", "0.01",
                                              "--no-reverify"}));
  ASSERT_EQ(capped.exit_code, 0) << capped.out << capped.err;
  EXPECT_NE(capped.out.find("stopped (the run's dollar budget)"), std::string::npos) << capped.out;
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(CpuAgent, AKilledRunLosesNoFinishedAttemptAndResumes) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_syntax_error.cpp"), 2));
  ScriptedReply slow = FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 1);
  slow.pause_ms = 15000;  // the second call is still in flight when kforge is killed
  server.script(slow);
  // kill -9 once the first attempt's verdict is out, while the second call waits.
  std::string command = "\"" + std::string(KFORGE_BINARY) + "\"";
  for (const auto& a : agent_args(dir, {"--model", "scripted", "--attempts", "3"})) command += " '" + a + "'";
  command += " > '" + dir.file("out.txt") + "' 2>&1 & pid=$!; for i in $(seq 1200); do grep -q 'compile_error' '" +
             dir.file("out.txt") + "' && break; sleep 0.1; done; sleep 1; kill -9 $pid; wait $pid; echo \"exit $?\"";
  auto killed = run_command({"/bin/sh", "-c", command});
  EXPECT_NE(killed.out.find("exit 137"), std::string::npos) << killed.out << file_text(dir.file("out.txt"));

  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2));
  auto resumed = run_kforge({"--db", dir.file("k.db"), "agent", "--resume", "1", "--attempts", "2", "--no-reverify"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("attempt #2 (debugger, parent #1, scripted): correct"), std::string::npos) << resumed.out;
  auto show = run_kforge({"--db", dir.file("k.db"), "agent", "show", "1"});
  EXPECT_NE(show.out.find("#1 round 1 coder (scripted): compile_error\n    #2 round 2 debugger (scripted): correct"),
            std::string::npos) << show.out;
  EXPECT_EQ(show.out.find("#3"), std::string::npos) << "the call in flight at the kill is not an attempt: " << show.out;
}

TEST(CpuAgent, TwoModelsShareAMetrSearchThroughAHackAndAnOutage) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server, "alpha,beta");
  // One attempt a round, the models in turn: alpha writes a hack (right values, inputs
  // overwritten), beta's provider fails, alpha fixes the hack, beta refines the fix.
  server.script(FakeModelServer::openai_stream("```cpp\n" + file_text(source_path("tests/adversarial/input_mutation_native.cpp")) + "```", 2));
  server.script(FakeModelServer::error(500, "overloaded"));
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2));
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2));
  auto r = run_kforge(agent_args(dir, {"--model", "alpha", "--model", "beta", "--policy", "metr", "--seeds", "1",
                                       "--width", "1", "--attempts", "4", "--no-reverify"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("attempt #1 (coder, alpha): rejected"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #2 (debugger, beta): server"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #3 (debugger, parent #1, alpha): correct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #4 (refiner, parent #3, beta): correct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("best attempt #3 correct"), std::string::npos) << "the hack is never the best: " << r.out;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].body.at("model"), "alpha-coder");
  EXPECT_EQ(requests[1].body.at("model"), "beta-coder");
  EXPECT_EQ(requests[2].body.at("model"), "alpha-coder");
  auto show = run_kforge({"--db", dir.file("k.db"), "agent", "show", "1"});
  EXPECT_NE(show.out.find("#1 round 1 coder (alpha): rejected\n    #2 round 2 debugger (beta): call_failed\n    #3 round 3 debugger (alpha): correct"),
            std::string::npos) << show.out;
}

TEST(CpuAgent, AStoreLockedAfterAModelCallEndsTheRunWithAMessageAndResumeGoesOn) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  ScriptedReply slow = FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 1);
  slow.pause_ms = 300;  // before each of its chunks: the answer comes about a second after the call
  server.script(slow);
  // A second writer takes the store once the call has reached the model, and holds it for 9 s,
  // past the store's 5 s busy timeout: the attempt cannot be stored when its answer comes. kforge
  // must say so and exit 1, not abort.
  CommandResult locked;
  std::thread agent([&] { locked = run_kforge(agent_args(dir, {"--model", "scripted", "--attempts", "1", "--no-reverify"})); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (server.requests().empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  {
    sqlite::Database holder(dir.file("k.db"));
    holder.exec("BEGIN EXCLUSIVE");
    std::this_thread::sleep_for(std::chrono::seconds(9));
    holder.exec("ROLLBACK");
  }
  agent.join();
  const std::string out = locked.out + locked.err;
  EXPECT_EQ(locked.exit_code, 1) << out;
  EXPECT_NE(out.find("locked"), std::string::npos) << out;
  EXPECT_NE(out.find("kforge agent --resume 1"), std::string::npos) << out;

  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2));
  auto resumed = run_kforge({"--db", dir.file("k.db"), "agent", "--resume", "1", "--attempts", "1", "--no-reverify"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("attempt #1 (coder, scripted): correct"), std::string::npos) << resumed.out;
}

TEST(CpuAgent, APlateauStopsAProblem) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2));
  server.script(FakeModelServer::openai_stream("No further ideas.", 1));
  auto r = run_kforge(agent_args(dir, {"--model", "scripted", "--attempts", "6", "--plateau", "1", "--no-reverify"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("stopped (no better attempt in the last 1); best attempt #1 correct"), std::string::npos) << r.out;
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(CpuAgent, ChainsStartAPopulationAndATokenBudgetStopsThem) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  server.script(FakeModelServer::openai_stream("Thinking about it.", 1, 400, 200));
  server.script(FakeModelServer::openai_stream("Still thinking.", 1, 400, 200));
  auto r = run_kforge(agent_args(dir, {"--model", "scripted", "--policy", "chains", "--width", "2", "--attempts", "6",
                                       "--budget-tokens", "1000", "--no-reverify"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("attempt #1 (coder, scripted): no_code"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #2 (coder, scripted): no_code"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stopped (the run's token budget)"), std::string::npos) << r.out;
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(CpuAgent, AReplayOfARecordedRunGrowsTheSameTree) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_syntax_error.cpp"), 2));
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2));
  auto recorded = run_kforge(agent_args(dir, {"--model", "scripted", "--attempts", "2", "--no-reverify"}));
  ASSERT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;

  // The same search against a replay of that store: no server, the same answers, the same tree.
  TempDir again;
  std::ofstream(again.file("kforge.toml")) << "[models.scripted]\napi = \"replay\"\nendpoint = \"" << dir.file("k.db")
                                           << "\"\nmodel = \"scripted\"\nconcurrency = 1\n";
  auto replayed = run_kforge(agent_args(again, {"--model", "scripted", "--attempts", "2", "--no-reverify"}));
  ASSERT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  auto tree = [](const TempDir& d) {  // the verdicts and links; speedups are measured again
    auto show = run_kforge({"--db", d.file("k.db"), "agent", "show", "1"});
    return std::regex_replace(show.out.substr(0, show.out.find("trajectory")), std::regex(R"(correct [0-9.]+x)"), "correct");
  };
  EXPECT_EQ(tree(dir), tree(again));
  EXPECT_NE(tree(again).find("#2 round 2 debugger (scripted): correct"), std::string::npos) << tree(again);
  EXPECT_EQ(server.requests().size(), 2u) << "the replay asked no server";
}

// Nsight Compute where it pays: a round's new best is profiled on a leased worker and the digest
// reaches the refinement's prompt. CI has no ncu: tests/support/fake_ncu stands in for it,
// writing the page recorded on the H200 (the real one runs in tools/gpu-check.sh).
TEST(CpuAgent, ANewBestIsProfiledAndItsDigestReachesTheNextPrompt) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2, 1000, 300));
  server.script(FakeModelServer::openai_stream("I would keep it as it is.", 1, 1200, 20));
  ::setenv("KFORGE_NCU", source_path("tests/support/fake_ncu").c_str(), 1);
  auto r = run_kforge(agent_args(dir, {"--model", "scripted", "--policy", "serial", "--attempts", "2", "--no-reverify",
                                       "--profile", "new-best"}));
  ::unsetenv("KFORGE_NCU");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("attempt #1 profiled with Nsight Compute in"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("attempt #2 profiled"), std::string::npos) << r.out;  // no code: nothing to profile
  EXPECT_NE(r.out.find("1 Nsight Compute profile(s) in"), std::string::npos) << r.out;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  std::string refiner;
  for (const auto& m : requests[1].body.at("messages"))
    if (m.at("role") == "user") refiner = m.at("content").get<std::string>();
  // The recorded page's kernel, and the digest's figures under it.
  EXPECT_NE(refiner.find("Nsight Compute, kernel fused_add_relu_vec4"), std::string::npos) << refiner;
  EXPECT_NE(refiner.find("occupancy"), std::string::npos) << refiner;

  // --profile off: no profile, and no word of one.
  TempDir off;
  FakeModelServer quiet;
  write_models(off, quiet);
  quiet.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2, 1000, 300));
  ::setenv("KFORGE_NCU", source_path("tests/support/fake_ncu").c_str(), 1);
  auto r2 = run_kforge(agent_args(off, {"--model", "scripted", "--attempts", "1", "--no-reverify", "--profile", "off"}));
  ::unsetenv("KFORGE_NCU");
  ASSERT_EQ(r2.exit_code, 0) << r2.out << r2.err;
  EXPECT_EQ(r2.out.find("Nsight Compute"), std::string::npos) << r2.out;
}

TEST(CpuAgent, AScriptedModelAnswersFromAFolder) {
  TempDir dir;
  // The folder's own file for any problem; this problem's own folder for it.
  std::filesystem::create_directories(dir.file("answers/level1/1_Tiny_Add_ReLU"));
  std::ofstream(dir.file("answers/1.md")) << "No code for problems without answers of their own.";
  std::ofstream(dir.file("answers/level1/1_Tiny_Add_ReLU/1.md")) << cpp_answer("cpp_add_relu.cpp");
  std::ofstream(dir.file("kforge.toml")) << "[models.instant]\napi = \"scripted\"\nendpoint = \"answers\"\nmodel = \"x\"\n";
  auto r = run_kforge(agent_args(dir, {"--model", "instant", "--attempts", "2", "--no-reverify"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("attempt #1 (coder, instant): correct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #2 (refiner, parent #1, instant): correct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 input and 0 output tokens, $0.0000"), std::string::npos) << r.out;
}

TEST(CpuAgent, ARoundsAttemptsAreEvaluatedSideBySide) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("answers"));
  for (int k = 1; k <= 3; ++k)  // distinct candidates: no evaluation is reused from the store
    std::ofstream(dir.file("answers/" + std::to_string(k) + ".md"))
        << "```cpp\n// variant " << k << "\n" << file_text(source_path("tests/candidates/native/cpp_add_relu.cpp")) << "```\n";
  std::ofstream(dir.file("kforge.toml")) << "[models.instant]\napi = \"scripted\"\nendpoint = \"answers\"\nmodel = \"x\"\n"
                                            "concurrency = 3\n";
  auto r = run_kforge(agent_args(dir, {"--model", "instant", "--policy", "metr", "--seeds", "3", "--width", "3",
                                       "--attempts", "3", "--no-reverify"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  for (int k = 1; k <= 3; ++k)
    EXPECT_NE(r.out.find("attempt #" + std::to_string(k) + " (coder, instant): correct"), std::string::npos) << r.out;
  auto show = run_kforge({"--db", dir.file("k.db"), "agent", "show", "1"});
  EXPECT_NE(show.out.find("  #1 round 1 coder (instant): correct"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("  #3 round 1 coder (instant): correct"), std::string::npos) << show.out;
}

TEST(CpuAgent, SearchesALevelOfAnUpstreamCheckout) {
  // tests/problems/upstream_layout is a miniature of upstream KernelBench's layout (--suite).
  TempDir dir;
  std::ofstream(dir.file("kforge.toml")) << "[models.instant]\napi = \"scripted\"\nendpoint = \"answers\"\nmodel = \"x\"\n";
  std::filesystem::create_directories(dir.file("answers"));
  std::ofstream(dir.file("answers/1.md")) << "No code: this checks which problems are searched.";
  auto r = run_kforge({"--db", dir.file("k.db"), "agent", "--suite", source_path("tests/problems/upstream_layout/KernelBench"),
                       "--level", "1", "--format", "kernelbench", "--device", "cpu", "--model", "instant", "--attempts",
                       "1", "--no-reverify", "--out", dir.file("run")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // Its level 1 holds upstream's 19_ReLU, under upstream's id and name.
  EXPECT_NE(r.out.find("run 1, 1 problem(s), policy serial"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("level1/19_ReLU: stopped (1 attempts)"), std::string::npos) << r.out;
}

TEST(CpuAgent, SearchesAUsersOwnModule) {
  // Any PyTorch file with Model, get_inputs and get_init_inputs, outside any suite.
  TempDir dir;
  std::ofstream(dir.file("my_layer.py")) << "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n"
                                            "    def forward(self, x):\n        return torch.relu(x) * 2.0\n\n"
                                            "def get_inputs():\n    return [torch.randn(32, 32)]\n\n"
                                            "def get_init_inputs():\n    return []\n";
  std::filesystem::create_directories(dir.file("answers"));
  std::ofstream(dir.file("answers/1.md")) << "```python\nimport torch\nimport torch.nn as nn\n\nclass ModelNew(nn.Module):\n"
                                             "    def forward(self, x):\n        return torch.clamp(x, min=0) * 2.0\n```\n";
  std::ofstream(dir.file("kforge.toml")) << "[models.instant]\napi = \"scripted\"\nendpoint = \"answers\"\nmodel = \"x\"\n";
  auto r = run_kforge({"--db", dir.file("k.db"), "agent", "--problem", dir.file("my_layer.py"), "--format", "kernelbench",
                       "--device", "cpu", "--model", "instant", "--attempts", "1", "--max-time", "0.2", "--out",
                       dir.file("run")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("my_layer attempt #1 (coder, instant): correct"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir.file("run/best/my_layer/best.py"))) << r.out;
}

TEST(CpuAgent, APlannerWritesThePlanARefinementFollows) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server, "scripted,reviewer");
  // One call at a time, in order: the coder's first attempt, the planner on it, the refiner.
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2, 1000, 200));
  server.script(FakeModelServer::openai_stream("Bound by memory traffic: fuse the add and the max into one pass.", 1, 500, 30));
  server.script(FakeModelServer::openai_stream(cpp_answer("cpp_add_relu.cpp"), 2, 1000, 200));
  auto r = run_kforge(agent_args(dir, {"--model", "scripted", "--planner", "reviewer", "--attempts", "2", "--no-reverify"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1].body.at("model"), "reviewer-coder");
  auto user = [&](size_t i) {
    for (const auto& m : requests[i].body.at("messages"))
      if (m.at("role") == "user") return m.at("content").get<std::string>();
    return std::string();
  };
  EXPECT_NE(user(1).find("You are planning the next optimisation"), std::string::npos) << user(1);
  EXPECT_NE(user(1).find("speedup over PyTorch eager"), std::string::npos) << user(1);
  EXPECT_NE(user(2).find("A plan to follow, from a reviewer who read the figures:\nBound by memory traffic"),
            std::string::npos) << user(2);
  // The planner's tokens are the attempt's: 1000 + 500 + 1000 in, 200 + 30 + 200 out.
  EXPECT_NE(r.out.find("2500 input and 430 output tokens"), std::string::npos) << r.out;
}

TEST(CpuAgent, KforgePromptShowsEachRolesPrompt) {
  TempDir dir;
  std::ofstream(dir.file("digest.txt")) << "verdict: correct (5/5 trials)\nspeedup over PyTorch eager: 1.100x\n";
  auto refiner = run_kforge({"--db", dir.file("k.db"), "prompt", "level1/1", "--suite", source_path("tests/problems"),
                             "--format", "cpp", "--role", "refiner", "--parent",
                             source_path("tests/candidates/native/cpp_add_relu.cpp"), "--feedback", dir.file("digest.txt")});
  ASSERT_EQ(refiner.exit_code, 0) << refiner.err;
  EXPECT_NE(refiner.out.find(file_text(source_path("tests/candidates/native/cpp_add_relu.cpp"))), std::string::npos);
  EXPECT_NE(refiner.out.find("speedup over PyTorch eager: 1.100x"), std::string::npos) << refiner.out;
  EXPECT_NE(refiner.out.find("It is correct. Make it faster"), std::string::npos) << refiner.out;
  auto coder = run_kforge({"--db", dir.file("k.db"), "prompt", "level1/1", "--suite", source_path("tests/problems"),
                           "--format", "cpp", "--parent", dir.file("digest.txt")});
  EXPECT_EQ(coder.exit_code, 2);
  EXPECT_NE(coder.err.find("--parent and --feedback belong to --role refiner, debugger or planner"), std::string::npos) << coder.err;
}

TEST(CpuAgent, UsageErrorsSayWhatIsWrong) {
  TempDir dir;
  FakeModelServer server;
  write_models(dir, server);
  auto policy = run_kforge(agent_args(dir, {"--model", "scripted", "--policy", "greedy"}));
  EXPECT_EQ(policy.exit_code, 2);
  EXPECT_NE(policy.err.find("unknown search policy 'greedy' (beam, chains, metr, serial)"), std::string::npos) << policy.err;
  auto model = run_kforge(agent_args(dir, {"--model", "nobody"}));
  EXPECT_EQ(model.exit_code, 2);
  EXPECT_NE(model.err.find("unknown model 'nobody'"), std::string::npos) << model.err;
  auto cuda = run_kforge(agent_args(dir, {"--model", "scripted", "--format", "cuda"}));
  EXPECT_EQ(cuda.exit_code, 2);
  EXPECT_NE(cuda.err.find("--format cuda needs a GPU"), std::string::npos) << cuda.err;
  auto show = run_kforge({"--db", dir.file("k.db"), "agent", "show", "7"});
  EXPECT_EQ(show.exit_code, 2);
  EXPECT_NE(show.err.find("run 7 is not a kforge agent run"), std::string::npos) << show.err;
  EXPECT_TRUE(server.requests().empty());
}

}  // namespace
}  // namespace kforge::testing

namespace kforge::testing {
namespace {

// A training problem (level 6) searched: the coder's hand-written backward is correct, the
// refiner's forgets a factor of the weight's gradient and is incorrect, and the debugger that
// follows is shown the gradient that differs and the rules of a training step. A scripted model
// (a folder of answers) writes the attempts.
TEST(CpuAgent, ATrainingProblemIsSearchedWithItsGradientsInTheFeedback) {
  TempDir dir;
  auto answer = [](const std::string& solution) {
    return "```python\n" + file_text(source_path("solutions/level6/7_RMSNorm/" + solution)) + "```\n";
  };
  dir.write("answers/1.md", answer("cpu_manual_backward.py"));
  dir.write("answers/2.md", answer("wrong_cpu_no_rms_in_weight_grad.py"));
  std::ofstream(dir.file("kforge.toml")) << "[models.instant]\napi = \"scripted\"\nendpoint = \"" << dir.file("answers")
                                         << "\"\nmodel = \"instant\"\n";
  auto r = run_kforge({"--db", dir.file("k.db"), "agent", "--model", "instant", "--problem", "level6/7", "--format",
                       "kernelbench", "--device", "cpu", "--max-time", "0.3", "--attempts", "3", "--out", dir.file("run")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("attempt #1 (coder, instant): correct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt #2 (refiner, parent #1, instant): incorrect"), std::string::npos) << r.out;
  sqlite::Database db(dir.file("k.db"));
  auto debugger = db.prepare("SELECT prompt FROM agent_nodes WHERE role = 'debugger' ORDER BY id LIMIT 1");
  ASSERT_TRUE(debugger.step()) << r.out;
  const std::string prompt = debugger.text_at(0);
  EXPECT_NE(prompt.find("the gradient of parameter weight"), std::string::npos) << prompt.substr(0, 400);
  EXPECT_NE(prompt.find("This is a training problem"), std::string::npos) << prompt.substr(0, 400);
}

}  // namespace
}  // namespace kforge::testing
