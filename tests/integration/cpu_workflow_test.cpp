// The whole CPU workflow through the real binary: folder matching, the store's reuse and --force,
// report, export, a killed run, a locked database, and the shipped solutions (make demo on CPU).
#include <gtest/gtest.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "common/files.hpp"
#include "store/sqlite.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

extern char** environ;

namespace kforge::testing {
namespace {

const std::vector<std::string> kQuick{"--device", "cpu", "--timeout", "60", "--max-time", "0.3", "--min-time", "0",
                                      "--min-samples", "5"};

constexpr const char* kArgmaxCandidate =
    "import torch\n"
    "class ModelNew(torch.nn.Module):\n"
    "    def __init__(self, dim):\n"
    "        super().__init__()\n"
    "        self.dim = dim\n"
    "    def forward(self, x):\n"
    "        return torch.max(x, dim=self.dim).indices\n";

std::vector<std::string> eval_args(const std::string& db, std::vector<std::string> rest) {
  std::vector<std::string> args{"--db", db, "eval"};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.insert(args.end(), rest.begin(), rest.end());
  return args;
}

class CpuWorkflow : public ::testing::Test {
 protected:
  void SetUp() override {
    run_dir_ = dir_.path() / "run";
    dir_.write("run/level1/1_Tiny_Add_ReLU/clamp.py", read_file(source_path("tests/candidates/correct.py")));
    dir_.write("run/level_1_problem_2_sample_3_kernel.py", kArgmaxCandidate);
    dir_.write("run/notes/stray.py", "print('not a candidate')\n");
    db_ = dir_.file("k.db");
  }
  TempDir dir_;
  std::filesystem::path run_dir_;
  std::string db_;
  std::string suite_ = source_path("tests/problems");
};

TEST_F(CpuWorkflow, FolderReuseForceReportExport) {
  auto first = run_kforge(eval_args(db_, {"--suite", suite_, "--json", run_dir_.string()}));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto lines = first.json_lines();
  ASSERT_EQ(lines.size(), 2u) << first.out << first.err;
  EXPECT_EQ(lines[0]["problem"], "level1/1_Tiny_Add_ReLU");
  EXPECT_EQ(lines[0]["candidate"], "level1/1_Tiny_Add_ReLU/clamp.py");
  EXPECT_EQ(lines[1]["problem"], "level1/2_Tiny_Argmax");
  for (const auto& l : lines) {
    EXPECT_EQ(l["verdict"], "correct") << l.dump();
    EXPECT_EQ(l["reused"], false);
  }
  EXPECT_NE(first.err.find("notes/stray.py matches no problem layout"), std::string::npos) << first.err;
  // stderr is a file here, not a terminal: one line per finished candidate, with the time so far
  // and an estimate of what is left, so a long batch is never silent.
  for (const char* part : {"kforge: [1/2] level1/", "kforge: [2/2] level1/", "s so far, about ", "s left)"})
    EXPECT_NE(first.err.find(part), std::string::npos) << part << "\n" << first.err;

  // Same inputs and settings: reused from the store, not run again.
  auto second = run_kforge(eval_args(db_, {"--suite", suite_, "--json", run_dir_.string()}));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  auto again = second.json_lines();
  ASSERT_EQ(again.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(again[i]["reused"], true);
    EXPECT_EQ(again[i]["evaluation_id"], lines[i]["evaluation_id"]);
    EXPECT_EQ(again[i]["speedup"], lines[i]["speedup"]);
  }
  // Different settings are a different evaluation; --force re-runs the same one.
  auto other = run_kforge(eval_args(db_, {"--suite", suite_, "--json", "--trials", "2", run_dir_.string()}));
  for (const auto& l : other.json_lines()) EXPECT_EQ(l["reused"], false);
  auto forced = run_kforge(eval_args(db_, {"--suite", suite_, "--json", "--force", run_dir_.string()}));
  for (const auto& l : forced.json_lines()) EXPECT_EQ(l["reused"], false);

  auto report = run_kforge({"--db", db_, "report", "--results"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("fast_1.5"), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("clamp.py"), std::string::npos) << report.out;
  auto report_json = nlohmann::json::parse(run_kforge({"--db", db_, "report", "--json"}).out);
  EXPECT_EQ(report_json["fast_p"]["all"]["n"], 2);
  EXPECT_DOUBLE_EQ(report_json["fast_p"]["all"]["fast_0"].get<double>(), 1.0);
  auto runs = run_kforge({"--db", db_, "report", "--runs"});
  EXPECT_NE(runs.out.find("kforge"), std::string::npos);

  // Speedups against an upstream baseline file's mean times, matched by level and file name: a
  // problem the file lacks counts as not fast and is named.
  const double cand_ms = lines[0]["cand_ms"].get<double>();
  dir_.write("baseline_time_torch.json",
             nlohmann::json{{"level1", {{"1_Tiny_Add_ReLU.py", {{"mean", cand_ms * 3}, {"hardware", "cpu"}}}}}}.dump());
  auto against_file = run_kforge({"--db", db_, "report", "--json", "--results", "--baseline-file", dir_.file("baseline_time_torch.json")});
  ASSERT_EQ(against_file.exit_code, 0) << against_file.err;
  auto bj = nlohmann::json::parse(against_file.out);
  EXPECT_EQ(bj["baseline"]["missing"], nlohmann::json::array({"level1/2_Tiny_Argmax"})) << bj.dump(2);
  // Each candidate of the problem against the file's mean: the file's time over its own. (Not a
  // threshold: under load the bound can time a candidate by kforge's clock, and its time grows.)
  int matched = 0;
  for (const auto& row : bj["results"])
    if (row["problem"] == "level1/1_Tiny_Add_ReLU") {
      ++matched;
      const double own_ms = row["cand_ms"].get<double>();
      EXPECT_NEAR(row["speedup"].get<double>(), cand_ms * 3 / own_ms, 1e-9 * cand_ms * 3 / own_ms) << row.dump();
    }
  EXPECT_GT(matched, 0) << bj.dump(2);
  dir_.write("broken.json", "{\"level1\": {\"1_X.py\": {\"std\": 1}}}");
  auto broken = run_kforge({"--db", db_, "report", "--baseline-file", dir_.file("broken.json")});
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.err.find("has no positive \"mean\""), std::string::npos) << broken.err;

  std::string out = dir_.file("eval_results.json");
  auto exported = run_kforge({"--db", db_, "export", "--format", "kernelbench", "-o", out});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  auto j = nlohmann::json::parse(read_file(out));
  ASSERT_TRUE(j.contains("1") && j.contains("2")) << j.dump();
  EXPECT_EQ(j["2"][0]["sample_id"], 3);
  EXPECT_EQ(j["1"][0]["correctness"], true);
  EXPECT_GT(j["1"][0]["runtime"].get<double>(), 0);
}

int64_t count_evaluations(const std::string& db) {
  if (!std::filesystem::exists(db)) return 0;
  try {
    sqlite::Database d(db);
    auto s = d.prepare("SELECT count(*) FROM evaluations");
    return s.step() ? s.int_at(0) : 0;
  } catch (...) {
    return 0;
  }
}

// kforge started in the background with `args`, its stderr to `err_path` when one is given: a test
// acts on the store while it runs. -1 when it could not be started.
pid_t spawn_kforge(const std::vector<std::string>& args, const std::string& err_path = "") {
  std::vector<std::string> argv{KFORGE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  if (!err_path.empty()) posix_spawn_file_actions_addopen(&files, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, cargv[0], &files, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  return rc == 0 ? pid : -1;
}

TEST_F(CpuWorkflow, KilledRunKeepsFinishedResults) {
  pid_t pid = spawn_kforge(eval_args(db_, {"--problem", source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"),
                                           source_path("tests/candidates/correct.py"),
                                           source_path("tests/candidates/infinite_loop.py")}));
  ASSERT_GT(pid, 0);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (count_evaluations(db_) < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // now inside the endless candidate
  ::kill(pid, SIGKILL);
  int status;
  waitpid(pid, &status, 0);
  ASSERT_EQ(count_evaluations(db_), 1);
  auto report = run_kforge({"--db", db_, "report", "--json", "--results"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  auto j = nlohmann::json::parse(report.out);
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_EQ(j["results"][0]["verdict"], "correct");
}

TEST_F(CpuWorkflow, LockedDatabaseFailsClearlyAndLosesNothing) {
  auto first = run_kforge(eval_args(db_, {"--suite", suite_, "--json", run_dir_.string()}));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  {
    sqlite::Database holder(db_);
    holder.exec("BEGIN EXCLUSIVE");
    auto blocked = run_kforge(eval_args(db_, {"--suite", suite_, "--force", run_dir_.string()}));
    EXPECT_EQ(blocked.exit_code, 1);
    EXPECT_NE(blocked.err.find("another process holds the database"), std::string::npos) << blocked.err;
    holder.exec("ROLLBACK");
  }
  EXPECT_EQ(count_evaluations(db_), 2);
  EXPECT_EQ(run_kforge({"--db", db_, "report"}).exit_code, 0);
}

// Another writer takes the store in the middle of a run, past its 5 s busy timeout: the result
// finished then is kept, written once the store is free, and the run ends normally with every
// result stored (it used to abort, exit 134, losing the result it had just computed).
TEST_F(CpuWorkflow, AStoreLockedMidRunKeepsTheResultAndWritesItLater) {
  const std::string err_path = dir_.file("stderr.txt");
  pid_t pid = spawn_kforge(eval_args(db_, {"--problem", source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"),
                                           source_path("tests/candidates/correct.py"),
                                           source_path("tests/candidates/identity.py"),
                                           source_path("tests/candidates/wrong_dtype.py"),
                                           source_path("tests/candidates/nan_output.py")}),
                           err_path);
  ASSERT_GT(pid, 0);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (count_evaluations(db_) < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  {
    sqlite::Database holder(db_);
    holder.exec("BEGIN EXCLUSIVE");
    std::this_thread::sleep_for(std::chrono::seconds(8));
    holder.exec("ROLLBACK");
  }
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string err = read_file(err_path);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by a signal: " << err;
  EXPECT_EQ(WEXITSTATUS(status), 0) << err;
  EXPECT_NE(err.find("the store refused a result"), std::string::npos) << err;
  EXPECT_EQ(count_evaluations(db_), 4) << err;
  auto report = run_kforge({"--db", db_, "report", "--json", "--results"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(nlohmann::json::parse(report.out)["results"].size(), 4u) << report.out;
}

// A `timeout` stored under a short --timeout is not reused under a longer one (the candidate may
// finish there); under the same or a shorter limit it is.
TEST_F(CpuWorkflow, ATimeoutIsNotReusedUnderALongerLimit) {
  auto eval = [&](const std::string& timeout) {
    std::vector<std::string> args{"--db", db_, "eval", "--device", "cpu", "--timeout", timeout, "--max-time", "0.3",
                                  "--min-time", "0", "--min-samples", "5", "--json", "--problem",
                                  source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"),
                                  source_path("tests/candidates/infinite_loop.py")};
    auto r = run_kforge(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto lines = r.json_lines();
    EXPECT_EQ(lines.size(), 1u) << r.out;
    return lines.empty() ? nlohmann::json() : lines[0];
  };
  auto first = eval("2");
  EXPECT_EQ(first["verdict"], "timeout") << first.dump();
  auto longer = eval("4");
  EXPECT_EQ(longer["verdict"], "timeout") << longer.dump();
  EXPECT_EQ(longer["reused"], false) << "a 2 s timeout must not stand for a 4 s one: " << longer.dump();
  auto same = eval("4");
  EXPECT_EQ(same["reused"], true) << same.dump();
  auto shorter = eval("3");
  EXPECT_EQ(shorter["reused"], true) << shorter.dump();
}

TEST(CpuDemo, ShippedSolutionsOnCpu) {
  TempDir dir;
  auto r = run_kforge(eval_args(dir.file("k.db"), {"--json", source_path("solutions")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_GE(lines.size(), 8u) << r.out << r.err;
  EXPECT_NE(r.err.find("need a GPU"), std::string::npos) << r.err;
  for (const auto& l : lines) {
    std::string c = l["candidate"];
    std::string file = c.substr(c.find_last_of('/') + 1);
    bool wrong = file.starts_with("wrong_");
    EXPECT_EQ(l["verdict"], wrong ? "incorrect" : "correct") << c << ": " << l["message"];
    EXPECT_EQ(file.find("cuda"), std::string::npos) << "a CUDA candidate ran on the CPU: " << c;
  }
}

}  // namespace
}  // namespace kforge::testing

namespace kforge::testing {
namespace {

// A worker that cannot start (here: an interpreter that exits at once) stops the run with a clear
// error and exit status 1, and nothing half-done is stored.
TEST(CpuWorkflowErrors, WorkerThatCannotStart) {
  TempDir dir;
  ::setenv("KFORGE_PYTHON", "/bin/true", 1);
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--problem",
                       source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"), source_path("tests/candidates/correct.py")});
  ::unsetenv("KFORGE_PYTHON");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("failed to start"), std::string::npos) << r.err;
  auto report = run_kforge({"--db", dir.file("k.db"), "report"});
  EXPECT_NE(report.err.find("holds no run yet"), std::string::npos) << report.err;
}

}  // namespace
}  // namespace kforge::testing
