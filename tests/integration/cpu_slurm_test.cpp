// kforge slurm against a real Slurm on loopback: munged, slurmctld and slurmd from Debian's
// packages, started by the test with a generated slurm.conf (proctrack/linuxproc, task/none, CPU
// workers) and stopped by PID at its end. A study of two shards is submitted held, one shard is
// cancelled before it runs, the other released; status says which is done and which is lost,
// resubmit sends the lost one again, and the merged store holds every result exactly once.
// Skips with a message where the daemons cannot start; fails without Slurm's programs under
// KFORGE_REQUIRE_SLURM=1 (CI sets it; tools/setup.sh installs them where apt-get can).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

#include "build/subprocess.hpp"
#include "common/files.hpp"
#include "store/sqlite.hpp"
#include "store/store.hpp"
#include "suite/problem.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

bool on_path(const char* program) {
  return build::run_process({"sh", "-c", std::string("command -v ") + program}, std::chrono::seconds(10)).exit_code == 0;
}

std::string run_text(const std::vector<std::string>& argv) { return build::run_process(argv, std::chrono::seconds(60)).output; }

class LoopbackSlurm {
 public:
  explicit LoopbackSlurm(const TempDir& dir) : root_(dir.path() / "slurm") {
    namespace fs = std::filesystem;
    for (const char* sub : {"state", "spool", "log", "munge"}) fs::create_directories(root_ / sub);
    fs::permissions(root_ / "munge", fs::perms::owner_all, fs::perm_options::replace);
    {
      std::ofstream key(root_ / "munge/munge.key", std::ios::binary);
      std::ifstream random("/dev/urandom", std::ios::binary);
      std::string bytes(1024, '\0');
      random.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      key << bytes;
    }
    fs::permissions(root_ / "munge/munge.key", fs::perms::owner_read, fs::perm_options::replace);
    const std::string munge = (root_ / "munge").string();
    auto m = build::run_process({"munged", "--key-file=" + munge + "/munge.key", "--socket=" + munge + "/munge.sock",
                                 "--pid-file=" + munge + "/munged.pid", "--log-file=" + munge + "/munged.log",
                                 "--seed-file=" + munge + "/seed", "--force"},
                                std::chrono::seconds(30));
    if (m.exit_code != 0) {
      why_not_ = "munged did not start: " + m.output;
      return;
    }
    // Ports of this test's own, so another Slurm on the machine is left alone.
    const int port = 20000 + static_cast<int>(getpid() % 20000);
    const std::string host = run_text({"hostname", "-s"}).substr(0, run_text({"hostname", "-s"}).find('\n'));
    const std::string r = root_.string();
    std::ofstream(root_ / "slurm.conf")
        << "ClusterName=kforgetest\nSlurmctldHost=" << host << "(127.0.0.1)\nSlurmctldPort=" << port
        << "\nSlurmdPort=" << port + 1 << "\nAuthType=auth/munge\nAuthInfo=socket=" << munge
        << "/munge.sock\nCryptoType=crypto/munge\nProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
           "SchedulerType=sched/backfill\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
           "StateSaveLocation="
        << r << "/state\nSlurmdSpoolDir=" << r << "/spool\nSlurmctldPidFile=" << r << "/slurmctld.pid\nSlurmdPidFile=" << r
        << "/slurmd.pid\nSlurmctldLogFile=" << r << "/log/slurmctld.log\nSlurmdLogFile=" << r
        << "/log/slurmd.log\nSlurmUser=root\nReturnToService=2\nMpiDefault=none\nJobCompType=jobcomp/none\n"
           "AccountingStorageType=accounting_storage/none\nMinJobAge=600\nNodeName="
        << host << " NodeAddr=127.0.0.1 CPUs=" << std::thread::hardware_concurrency()
        << " State=UNKNOWN\nPartitionName=test Nodes=" << host << " Default=YES MaxTime=INFINITE State=UP\n";
    ::setenv("SLURM_CONF", (root_ / "slurm.conf").c_str(), 1);
    for (const char* daemon : {"slurmctld", "slurmd"}) {
      auto d = build::run_process({daemon, "-f", (root_ / "slurm.conf").string()}, std::chrono::seconds(30));
      if (d.exit_code != 0) {
        why_not_ = std::string(daemon) + " did not start: " + d.output;
        return;
      }
    }
    for (int i = 0; i < 60; ++i) {  // the node registers within seconds
      if (run_text({"sinfo", "-h", "-o", "%t"}).find("idle") != std::string::npos) {
        up_ = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    why_not_ = "the node never became idle: " + run_text({"sinfo"});
  }
  ~LoopbackSlurm() {
    for (const char* pid_file : {"slurmd.pid", "slurmctld.pid", "munge/munged.pid"}) {
      std::ifstream in(root_ / pid_file);
      pid_t pid = 0;
      if (in >> pid && pid > 0) ::kill(pid, SIGTERM);
    }
    ::unsetenv("SLURM_CONF");
  }
  bool up() const { return up_; }
  const std::string& why_not() const { return why_not_; }

 private:
  std::filesystem::path root_;
  bool up_ = false;
  std::string why_not_;
};

TEST(CpuSlurm, AStudyIsSubmittedCancelledResubmittedAndMergedOnce) {
  const bool required = std::getenv("KFORGE_REQUIRE_SLURM") && std::string(std::getenv("KFORGE_REQUIRE_SLURM")) == "1";
  for (const char* program : {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol"})
    if (!on_path(program)) {
      if (required) FAIL() << program << " is not installed (tools/setup.sh installs Slurm where apt-get can)";
      GTEST_SKIP() << program << " is not installed";
    }
  if (geteuid() != 0) GTEST_SKIP() << "slurmd must run as root to start jobs";
  TempDir dir;
  LoopbackSlurm slurm(dir);
  if (!slurm.up()) GTEST_SKIP() << "a Slurm on loopback could not start here: " << slurm.why_not();

  for (const char* problem : {"1_Tiny_Add_ReLU", "2_Tiny_Argmax"})
    dir.write(std::string("run/level1/") + problem + "/identity.py",
              read_file(source_path(std::string("tests/problems/level1/") + problem + ".py")) + "\n\nModelNew = Model\n");
  const std::string study = dir.file("study");
  // Held, so that one shard can be cancelled before it runs.
  auto submit = run_kforge({"slurm", "submit", "--study", study, "--shards", "2", "--sbatch-option=--hold", "--", "eval",
                            "--device", "cpu", "--max-time", "0.2", "--min-time", "0", "--min-samples", "5", "--suite",
                            source_path("tests/problems"), "--name", "study", dir.file("run")});
  ASSERT_EQ(submit.exit_code, 0) << submit.out << submit.err;
  auto job = [&] { return nlohmann::json::parse(read_file(study + "/study.json"))["jobs"].back().get<std::string>(); };
  const std::string first = job();
  run_text({"scancel", first + "_1"});
  run_text({"scontrol", "release", first});

  auto wait_for = [&](const std::vector<std::string>& wanted) {
    std::string out;
    for (int i = 0; i < 240; ++i) {
      out = run_kforge({"slurm", "status", "--study", study}).out;
      bool all = true;
      for (const auto& w : wanted) all = all && out.find(w) != std::string::npos;
      if (all) return out;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    ADD_FAILURE() << "status never showed what was awaited:\n" << out;
    return out;
  };
  auto status = wait_for({"    0  done", "    1  lost"});
  std::cout << "status after the cancel:\n" << status;  // docs/cli.md quotes it
  EXPECT_NE(status.find("1 of 2 shard(s) done"), std::string::npos) << status;

  auto resubmit = run_kforge({"slurm", "resubmit", "--study", study});
  ASSERT_EQ(resubmit.exit_code, 0) << resubmit.out << resubmit.err;
  EXPECT_NE(resubmit.out.find("resubmitted shard(s) 1"), std::string::npos) << resubmit.out;
  run_text({"scontrol", "release", job()});
  status = wait_for({"2 of 2 shard(s) done"});
  std::cout << "after the resubmission:\n" << status << resubmit.out << submit.out;

  auto merged = run_kforge({"merge", study + "/shard-0.db", study + "/shard-1.db", "--into", dir.file("all.db")});
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  auto report = nlohmann::json::parse(run_kforge({"--db", dir.file("all.db"), "report", "study", "--json"}).out);
  EXPECT_EQ(report["fast_p"]["level1"]["n"], 2) << report.dump(2);
  EXPECT_EQ(report["fast_p"]["level1"]["problems"], 2) << report.dump(2);
  sqlite::Database all(dir.file("all.db"));
  auto s = all.prepare("SELECT count(*) FROM evaluations");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.int_at(0), 2);
  EXPECT_EQ(run_kforge({"slurm", "resubmit", "--study", study}).out.find("nothing to resubmit") != std::string::npos, true);
}

// What submit cannot run is refused before anything is written or submitted (no Slurm needed).
TEST(CpuSlurm, SubmitRefusesWhatItCannotRun) {
  TempDir dir;
  const std::string study = dir.file("study");
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"generate", "--model", "m"}, {"eval", "--db", "x.db", "runs/x"},
        {"eval", "--shard", "0/2", "runs/x"}, {"run", "--model", "m", "--level", "1"}}) {
    std::vector<std::string> args{"--db", dir.file("k.db"), "slurm", "submit", "--study", study, "--shards", "2", "--"};
    args.insert(args.end(), command.begin(), command.end());
    auto r = run_kforge(args);
    EXPECT_EQ(r.exit_code, 2) << command.front() << "\n" << r.out << r.err;
    EXPECT_FALSE(std::filesystem::exists(study + "/study.json")) << r.out;
    // Each refused by submit itself, not by the parser (the words after -- are the study's).
    if (command.front() == "generate") {
      EXPECT_NE(r.err.find("runs kforge eval, baseline, run or agent"), std::string::npos) << r.err;
    }
    if (command.front() == "eval") {
      EXPECT_NE(r.err.find("gives each shard its --db and --shard itself"), std::string::npos) << r.err;
    }
    if (command.front() == "run") {  // no kforge.toml beside the store: its models cannot be found
      EXPECT_NE(r.err.find("needs the models' kforge.toml"), std::string::npos) << r.err;
    }
  }
  auto status = run_kforge({"slurm", "status", "--study", dir.file("nowhere")});
  EXPECT_EQ(status.exit_code, 1);
  EXPECT_NE(status.err.find("no kforge study here"), std::string::npos) << status.err;
}

#if KFORGE_WITH_LLM  // agent and kforge.toml's tables need the providers' build
// What each shard of an agent study runs, from the command and kforge.toml's [slurm] table: its
// store and shard, the study's name for its run, the submitting kforge.toml for its models, and
// the submitting store's baselines in its store to weigh problems by. sbatch is a stand-in here
// (a script that prints a job id); the real Slurm runs in the test above.
TEST(CpuSlurm, SubmitWritesEachShardsCommandFromTheSlurmTable) {
  TempDir dir;
  dir.write("bin/sbatch", "#!/bin/sh\necho 4242\n");
  std::filesystem::permissions(dir.file("bin/sbatch"), std::filesystem::perms::owner_all);
  dir.write("kforge.toml", "[models.m]\napi = \"openai\"\nendpoint = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n\n"
                           "[slurm]\npartition = \"gpu\"\ntime = \"02:00:00\"\ngpus_per_node = 8\n"
                           "options = [\"--qos=high\"]\n");
  {
    Store store(dir.file("k.db"));
    const Problem p = load_problem_file(source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"));
    store.put_problem(p);
    Baseline b;
    b.problem_hash = p.hash;
    b.mode = "eager";
    b.device_name = "NVIDIA H200";
    b.torch_version = "2.11.0";
    b.median_ms = 3.5;
    b.num_trials = 100;
    store.put_baseline(b);
  }
  const std::string study = dir.file("study");
  auto r = run_command({"/usr/bin/env", "PATH=" + dir.file("bin") + ":" + std::getenv("PATH"), KFORGE_BINARY, "--db",
                        dir.file("k.db"), "slurm", "submit", "--study", study, "--shards", "2", "--partition", "debug",
                        "--", "agent", "--model", "m", "--level", "1", "--attempts", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("submitted job 4242: 2 shard(s) of kforge agent"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("split by expected cost (1 stored baselines"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("every shard's run is named 'study'"), std::string::npos) << r.out;
  const std::string script = read_file(study + "/kforge.sbatch");
  EXPECT_NE(script.find("#SBATCH --partition=debug\n"), std::string::npos) << script;  // the command line wins
  EXPECT_NE(script.find("#SBATCH --time=02:00:00\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --gpus-per-node=8\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --qos=high\n"), std::string::npos) << script;
  EXPECT_NE(script.find("'agent' '--model' 'm' '--level' '1' '--attempts' '4' '--name' 'study' '--config' '" +
                        dir.file("kforge.toml") + "' --shard \"$i\"/2"),
            std::string::npos)
      << script;
  for (int i : {0, 1}) {
    Store shard(study + "/shard-" + std::to_string(i) + ".db");
    EXPECT_TRUE(shard.typical_eager_ms(load_problem_file(source_path("tests/problems/level1/1_Tiny_Add_ReLU.py")).hash))
        << "shard " << i;
  }
}
#endif

}  // namespace
}  // namespace kforge::testing
