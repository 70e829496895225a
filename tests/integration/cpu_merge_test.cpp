// kforge merge through the real binary: the stores of two shards of one named study (each a real
// CPU evaluation) into one, merged twice with nothing added the second time, and the stores it
// must refuse (another suite's text of a problem, another schema) refused with nothing merged.
#include <gtest/gtest.h>

#include <fstream>

#include "common/files.hpp"
#include "store/sqlite.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

int64_t count(const std::string& db, const std::string& table) {
  sqlite::Database d(db);
  auto s = d.prepare("SELECT count(*) FROM " + table);
  return s.step() ? s.int_at(0) : -1;
}

class CpuMerge : public ::testing::Test {
 protected:
  // An identity candidate of a test problem, evaluated into a store of its own.
  void shard(const std::string& db, const std::string& problem, const std::vector<std::string>& extra = {}) {
    const std::string source = source_path("tests/problems/level1/" + problem + ".py");
    dir_.write("id_" + problem + ".py", read_file(source) + "\n\nModelNew = Model\n");
    std::vector<std::string> args{"--db", db, "eval", "--device", "cpu", "--max-time", "0.2", "--min-time", "0",
                                  "--min-samples", "5", "--problem", source, dir_.file("id_" + problem + ".py")};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = run_kforge(args);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  TempDir dir_;
};

TEST_F(CpuMerge, ShardsOfANamedStudyBecomeOneRunOnce) {
  const std::string a = dir_.file("a.db"), b = dir_.file("b.db"), all = dir_.file("all.db");
  shard(a, "1_Tiny_Add_ReLU", {"--name", "study"});
  shard(b, "2_Tiny_Argmax", {"--name", "study"});
  // The allowance the twins' distance gave each interval (schema 18), which later evaluations of
  // the problem on the device are widened by, comes along too. Set here, since a short timing's
  // twins may have too few pairs each to be compared (none is then stored).
  const auto set_allowance = [](const std::string& db, double allowance) {
    sqlite::Database d(db);
    d.exec("UPDATE evaluations SET process_allowance = " + std::to_string(allowance));
  };
  const auto allowances = [](const std::string& db) {
    sqlite::Database d(db);
    auto s = d.prepare("SELECT group_concat(process_allowance, ' ') FROM (SELECT process_allowance FROM evaluations"
                       " ORDER BY process_allowance)");
    return s.step() && !s.is_null(0) ? s.text_at(0) : std::string();
  };
  set_allowance(a, 0.0125);
  set_allowance(b, 0.0375);
  auto first = run_kforge({"merge", a, b, "--into", all});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("b.db: 1 evaluation(s)"), std::string::npos) << first.out;
  EXPECT_EQ(count(all, "evaluations"), 2);
  EXPECT_EQ(count(all, "samples"), count(a, "samples") + count(b, "samples"));
  // Which reference twin timed each reference sample comes along (schema 17).
  const auto timed_by_twins = [](const std::string& db) {
    sqlite::Database d(db);
    auto s = d.prepare("SELECT count(*) FROM samples WHERE side = 'ref' AND process IN (0, 1)");
    return s.step() ? s.int_at(0) : -1;
  };
  EXPECT_GT(timed_by_twins(a), 0);
  EXPECT_EQ(timed_by_twins(all), timed_by_twins(a) + timed_by_twins(b));
  EXPECT_EQ(allowances(all), "0.0125 0.0375");

  auto again = run_kforge({"merge", a, b, "--into", all});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("a.db: 0 evaluation(s), 0 model call(s), 0 agent attempt(s) and 0 run(s) added"),
            std::string::npos)
      << again.out;
  EXPECT_EQ(count(all, "evaluations"), 2);
  EXPECT_EQ(count(all, "run_evaluations"), 2);

  // One run, as if one machine had done it all.
  auto runs = nlohmann::json::parse(run_kforge({"--db", all, "runs", "--json"}).out);
  ASSERT_EQ(runs.size(), 1u) << runs.dump(2);
  EXPECT_EQ(runs[0]["name"], "study");
  EXPECT_EQ(runs[0]["evaluations"], 2);
  auto report = nlohmann::json::parse(run_kforge({"--db", all, "report", "study", "--json"}).out);
  EXPECT_EQ(report["fast_p"]["level1"]["n"], 2) << report.dump(2);
  EXPECT_EQ(report["fast_p"]["level1"]["fast_0"], 1.0) << report.dump(2);
}

TEST_F(CpuMerge, AnotherSuiteOrSchemaIsRefusedWithNothingMerged) {
  const std::string a = dir_.file("a.db"), all = dir_.file("all.db");
  shard(a, "1_Tiny_Add_ReLU");
  ASSERT_EQ(run_kforge({"merge", a, "--into", all}).exit_code, 0);

  // The same problem (level1/1_Tiny_Add_ReLU) with another text: another suite.
  dir_.write("suite/level1/1_Tiny_Add_ReLU.py",
             read_file(source_path("tests/problems/level1/1_Tiny_Add_ReLU.py")) + "\n# edited\n");
  dir_.write("id.py", read_file(source_path("tests/problems/level1/1_Tiny_Add_ReLU.py")) + "\n\nModelNew = Model\n");
  const std::string other = dir_.file("other.db");
  auto e = run_kforge({"--db", other, "eval", "--device", "cpu", "--max-time", "0.2", "--min-time", "0", "--min-samples", "5",
                       "--problem", dir_.file("suite/level1/1_Tiny_Add_ReLU.py"), dir_.file("id.py")});
  ASSERT_EQ(e.exit_code, 0) << e.out << e.err;
  auto clash = run_kforge({"merge", other, "--into", all});
  EXPECT_EQ(clash.exit_code, 1) << clash.out << clash.err;
  EXPECT_NE(clash.err.find("with another text (level1/1_Tiny_Add_ReLU)"), std::string::npos) << clash.err;
  EXPECT_EQ(count(all, "evaluations"), 1);
  EXPECT_EQ(count(all, "problems"), 1);

  // A store of an older schema.
  {
    sqlite::Database d(other);
    d.exec("UPDATE meta SET value = '12' WHERE key = 'schema_version'");
  }
  auto old = run_kforge({"merge", other, "--into", all});
  EXPECT_EQ(old.exit_code, 1) << old.out << old.err;
  EXPECT_NE(old.err.find("a store of schema 12"), std::string::npos) << old.err;
  EXPECT_EQ(count(all, "evaluations"), 1);
}

// A folder evaluated as two shards (as two nodes would, each into a store of its own) and merged:
// each shard takes whole problems, together they take every one once.
TEST_F(CpuMerge, TwoShardsOfAFolderMergeIntoTheWhole) {
  for (const char* problem : {"1_Tiny_Add_ReLU", "2_Tiny_Argmax"})
    dir_.write(std::string("run/level1/") + problem + "/identity.py",
               read_file(source_path(std::string("tests/problems/level1/") + problem + ".py")) + "\n\nModelNew = Model\n");
  std::vector<std::string> shard_dbs;
  for (int i = 0; i < 2; ++i) {
    shard_dbs.push_back(dir_.file("shard-" + std::to_string(i) + ".db"));
    auto r = run_kforge({"--db", shard_dbs.back(), "eval", "--device", "cpu", "--max-time", "0.2", "--min-time", "0",
                         "--min-samples", "5", "--suite", source_path("tests/problems"), "--name", "study", "--shard",
                         std::to_string(i) + "/2", "--json", dir_.file("run")});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.json_lines().size(), 1u) << r.out;
    EXPECT_NE(r.err.find("kforge: shard " + std::to_string(i) + "/2: 1 of 2 problems"), std::string::npos) << r.err;
  }
  ASSERT_EQ(run_kforge({"merge", shard_dbs[0], shard_dbs[1], "--into", dir_.file("all.db")}).exit_code, 0);
  auto report = nlohmann::json::parse(run_kforge({"--db", dir_.file("all.db"), "report", "study", "--json"}).out);
  EXPECT_EQ(report["fast_p"]["level1"]["n"], 2) << report.dump(2);
  EXPECT_EQ(report["fast_p"]["level1"]["problems"], 2) << report.dump(2);
  EXPECT_EQ(run_kforge({"--db", dir_.file("x.db"), "eval", "--shard", "2/2", dir_.file("run")}).exit_code, 2);
}

}  // namespace
}  // namespace kforge::testing
