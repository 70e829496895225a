// The boundary on the CPU (docs/evaluation.md, "The boundary"): what a hostile candidate does to
// its own process dies with it, kforge and its reference process survive it, nothing it starts
// outlives kforge, and no secret reaches a message. Each hostile file of tests/adversarial/ is
// followed in the same run (one worker, one reference process) by an honest candidate, whose
// verdict must not change.
#include <dirent.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sys/shm.h>
#include <unistd.h>
#include <utime.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/statistics.hpp"
#include "metrics/timing_clock.hpp"
#include "store/store.hpp"
#include "support/command.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

extern char** environ;

namespace kforge::testing {
namespace {

const char* kProblem = "tests/problems/hack_target/level1/1_Add_ReLU.py";

// kProblem's identity candidate: the problem's text with ModelNew = Model.
std::string identity_of_problem() { return read_whole_file(source_path(kProblem)) + "\n\nModelNew = Model\n"; }

// kProblem's text with `lines` (indented for the method's body) run first in its forward; empty,
// after a failure saying why, where the problem has no forward where the tests expect one.
std::string problem_with_forward_prelude(const std::string& lines) {
  std::string problem = read_whole_file(source_path(kProblem));
  const size_t forward = problem.find("    def forward(");
  if (forward == std::string::npos) {
    ADD_FAILURE() << "the problem has no forward where this test expects one";
    return "";
  }
  return problem.insert(problem.find('\n', forward) + 1, lines);
}

// The CPU worker's log where a test's XDG_CACHE_HOME is `dir`/cache.
std::string cpu_worker_log(const TempDir& dir) { return read_whole_file(dir.file("cache") + "/kforge/logs/worker-cpu.log"); }

// One identity candidate of kProblem evaluated on the CPU (in the caller's environment): its JSON
// line, or null once a failure has said why (not one line, or a verdict other than correct).
nlohmann::json correct_identity(TempDir& dir, const char* max_time) {
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", max_time, "--problem",
                       source_path(kProblem), dir.write("identity.py", identity_of_problem())});
  auto lines = r.json_lines();
  if (lines.size() != 1u) {
    ADD_FAILURE() << r.out << r.err;
    return nullptr;
  }
  if (lines[0].value("verdict", "") != "correct") {
    ADD_FAILURE() << lines[0].dump();
    return nullptr;
  }
  return lines[0];
}

// Runs `hostile` files, each followed by its own copy of an honest candidate (a copy per file, so
// kforge does not reuse one verdict), in one kforge run; returns the JSON line of each file by name.
std::map<std::string, nlohmann::json> run_interleaved(const TempDir& dir, const std::vector<std::string>& hostile,
                                                      CommandResult* result = nullptr) {
  std::string honest = read_whole_file(source_path("tests/legit/add_relu_clamp.py"));
  std::vector<std::string> args{"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.5",
                                "--timeout", "90", "--problem", source_path(kProblem)};
  for (const auto& file : hostile) {
    args.push_back(source_path("tests/adversarial/" + file));
    args.push_back(dir.write("honest_after_" + file, honest + "# after " + file + "\n"));
  }
  auto r = run_kforge(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto by_name = r.lines_by_candidate();
  if (result) *result = r;
  return by_name;
}

void expect_honest_after_each(const std::map<std::string, nlohmann::json>& got, const std::vector<std::string>& hostile) {
  for (const auto& file : hostile) {
    auto it = got.find("honest_after_" + file);
    ASSERT_NE(it, got.end()) << "no result for the honest candidate after " << file;
    EXPECT_EQ(it->second.at("verdict"), "correct") << "after " << file << ": " << it->second.dump();
  }
}

// Processes whose command line contains `needle` (arguments joined by spaces).
std::vector<int> processes_with(const std::string& needle) {
  std::vector<int> out;
  DIR* proc = ::opendir("/proc");
  if (!proc) return out;
  while (dirent* e = ::readdir(proc)) {
    int pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::string cmdline = read_whole_file(std::string("/proc/") + e->d_name + "/cmdline");
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    if (cmdline.find(needle) != std::string::npos) out.push_back(pid);
  }
  ::closedir(proc);
  return out;
}

TEST(CpuIsolation, StateDiesWithItsCandidate) {
  TempDir dir;
  const std::vector<std::string> hostile{
      "leak_patch_torch_relu.py",      "leak_import_hook.py",          "leak_signal_alarm.py",
      "leak_scratch_shadow_module.py", "boundary_patch_reference_module.py", "boundary_slow_reference_class.py",
      "boundary_slow_reference_signal.py", "leak_shared_memory_file.py", "leak_deep_scratch_tree.py",
      "leak_sysv_shared_memory.py"};
  const std::string shared_memory_file = "/dev/shm/kforge-adversarial-leak";  // leak_shared_memory_file.py's
  ::unlink(shared_memory_file.c_str());
  auto got = run_interleaved(dir, hostile);
  expect_honest_after_each(got, hostile);
  EXPECT_EQ(got["boundary_patch_reference_module.py"].value("verdict", ""), "incorrect");
  EXPECT_EQ(got["leak_patch_torch_relu.py"].value("verdict", ""), "rejected");
  EXPECT_EQ(got["leak_shared_memory_file.py"].value("verdict", ""), "load_error");
  EXPECT_EQ(got["leak_deep_scratch_tree.py"].value("verdict", ""), "runtime_error");
  EXPECT_NE(::access(shared_memory_file.c_str(), F_OK), 0) << "a candidate's file outlived it in /dev/shm";
  EXPECT_EQ(got["leak_sysv_shared_memory.py"].value("verdict", ""), "load_error");
  const int segment = ::shmget(0x6B666F72, 0, 0);  // leak_sysv_shared_memory.py's key
  EXPECT_LT(segment, 0) << "a candidate's System V segment outlived it";
  if (segment >= 0) ::shmctl(segment, IPC_RMID, nullptr);
}

// Signals to kforge, the reference process and the zygote are denied: by Landlock's signal scope
// where the kernel has it, and by the seccomp rule older kernels rely on (forced here); from the
// candidate's process, and from a compiler its load_inline flags run (`-B DIR/`: a cc1plus of its
// own), which before session 34 killed kforge (exit 137).
TEST(CpuIsolation, KforgeSurvivesSignals) {
  const std::vector<std::string> hostile{"escape_kill_parent.py", "escape_kill_kforge_by_name.py",
                                         "escape_kill_kforge_through_compiler.py"};
  for (bool seccomp_only : {false, true}) {
    SCOPED_TRACE(seccomp_only ? "seccomp only" : "Landlock signal scope where the kernel has it");
    std::optional<ScopedEnv> no_scope;
    if (seccomp_only) no_scope.emplace("KFORGE_WORKER_NO_SIGNAL_SCOPE", "1");
    TempDir dir;
    auto got = run_interleaved(dir, hostile);
    expect_honest_after_each(got, hostile);
    for (const auto& file : hostile) EXPECT_EQ(got[file].value("verdict", ""), "correct") << got[file].dump();
  }
}

TEST(CpuIsolation, NothingOutlivesKforge) {
  TempDir dir;
  TempDir tmp;  // kforge's TMPDIR: the workers' scratch folders go here and must be gone after
  {
    ScopedEnv env("TMPDIR", tmp.path().string());
    auto got = run_interleaved(dir, {"escape_double_fork_setsid.py"});
    expect_honest_after_each(got, {"escape_double_fork_setsid.py"});
  }
  EXPECT_TRUE(processes_with("sleep 120.25").empty()) << "the double-forked grandchild outlived kforge";
  for (const auto& entry : std::filesystem::directory_iterator(tmp.path()))
    ADD_FAILURE() << "left behind: " << entry.path();
}

TEST(CpuIsolation, SecretsStayOutOfMessages) {
  const std::string secret = "sk-kforge-test-7f3a9c";
  ScopedEnv key("KFORGE_TEST_API_KEY", secret);
  ScopedEnv token("HF_TOKEN", secret);
  TempDir dir;
  // The store of this very run sits in the candidates' reach if reads were not confined.
  const std::vector<std::string> hostile{"secrets_env_in_message.py", "secrets_store_in_message.py",
                                         "secrets_reference_memory.py"};
  CommandResult r;
  auto got = run_interleaved(dir, hostile, &r);
  expect_honest_after_each(got, hostile);
  EXPECT_EQ(r.out.find(secret), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("SQLite format 3"), std::string::npos) << r.out;
  EXPECT_EQ(got["secrets_env_in_message.py"].value("verdict", ""), "runtime_error");
  EXPECT_EQ(got["secrets_store_in_message.py"].value("verdict", ""), "runtime_error");
  EXPECT_NE(got["secrets_store_in_message.py"].value("message", "").find("store: []"), std::string::npos)
      << got["secrets_store_in_message.py"].dump();
  EXPECT_EQ(got["secrets_reference_memory.py"].value("verdict", ""), "correct") << got["secrets_reference_memory.py"].dump();
}

// The sandbox lets candidates read the host compiler's folders (Triton builds with it), but a
// `cc` on PATH in the user's own bin/ never opens the home folder: a link opens only the
// compiler's real folders, and a wrapper script there only the toolchain's folders beside bin/.
// A secret in the home folder stays unreadable either way.
TEST(CpuIsolation, ACompilerOnPathOpensNoHomeFolder) {
  TempDir dir;
  const std::string home = dir.file("home");
  dir.write("home/secret.txt", "sk-kforge-home-secret\n");
  std::filesystem::create_directories(home + "/bin");
  std::string compiler = "/usr/bin/gcc";
  for (const char* c : {"/usr/bin/gcc", "/usr/bin/cc", "/bin/gcc"})
    if (::access(c, X_OK) == 0) {
      compiler = c;
      break;
    }
  std::filesystem::create_symlink(compiler, home + "/bin/cc");
  dir.write("home/bin/gcc", "#!/bin/sh\nexec " + compiler + " \"$@\"\n");
  std::filesystem::permissions(home + "/bin/gcc", std::filesystem::perms::owner_all);
  const std::string candidate = dir.write("reads_home.py", R"(import torch
import torch.nn as nn

try:
    open(")" + home + R"(/secret.txt").read()
    READABLE = True
except OSError:
    READABLE = False


class ModelNew(nn.Module):
    def forward(self, a, b):
        out = torch.relu(a + b)
        return out * 0 if READABLE else out
)");
  auto r = run_command({"/usr/bin/env", "PATH=" + home + "/bin:" + std::getenv("PATH"), "HOME=" + home, KFORGE_BINARY, "--db",
                        dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.3", "--problem",
                        source_path(kProblem), candidate});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  EXPECT_EQ(got["reads_home.py"].value("verdict", ""), "correct") << got["reads_home.py"].dump();
}

// kforge's build cache, and CUDA's JIT cache and Triton's in the home folder, are the worker's: a
// candidate's process asks the worker for its builds and gets a copy of its library in its scratch
// folder (worker/build_broker.hpp), and empty GPU caches there. A library or header it left in a
// shared one would be loaded by a later process (another candidate, a baseline's torch.compile) as
// the compiler's output for that process's source; one it read there could be another candidate's,
// passed off as its own. The candidate says what it reached by raising.
TEST(CpuIsolation, ACandidateWritesNoSharedCache) {
  TempDir dir;
  const std::string home = dir.file("home");
  std::filesystem::create_directories(home);
  const std::string build_cache = dir.file("cache") + "/kforge/build";
  std::filesystem::create_directories(build_cache + "/objects");
  std::filesystem::create_directories(build_cache + "/pch");
  const std::string candidate = dir.write("plants.py", R"(import os


def attempt(path):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("planted")
        return "wrote"
    except OSError:
        return "denied"


triton = attempt(")" + home + R"(/.triton/cache/planted/kernel.cubin")
nv = attempt(")" + home + R"(/.nv/ComputeCache/planted")
own = attempt(os.path.join(os.environ["TRITON_CACHE_DIR"], "own", "kernel.cubin"))
objects = attempt(")" + build_cache + R"(/objects/planted/candidate.so")
header = attempt(")" + build_cache + R"(/pch/planted/torch/extension.h.gch")
try:
    listed = "listed " + str(len(os.listdir(")" + build_cache + R"(/objects")))
except OSError:
    listed = "denied"
raise RuntimeError(f"REACHED objects={objects} header={header} listing={listed} triton={triton} nv={nv} own={own} "
                   f"triton_dir={os.environ['TRITON_CACHE_DIR']} nv_dir={os.environ['CUDA_CACHE_PATH']}")
)");
  auto r = run_command({"/usr/bin/env", "HOME=" + home, "XDG_CACHE_HOME=" + dir.file("cache"), KFORGE_BINARY, "--db",
                        dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.3", "--problem",
                        source_path(kProblem), candidate});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string message = r.lines_by_candidate()["plants.py"].value("message", "");
  EXPECT_NE(message.find("REACHED objects=denied header=denied listing=denied triton=denied nv=denied own=wrote"),
            std::string::npos)
      << message;
  EXPECT_FALSE(std::filesystem::exists(build_cache + "/objects/planted"));
  EXPECT_FALSE(std::filesystem::exists(build_cache + "/pch/planted"));
  EXPECT_NE(message.find("/triton-cache nv_dir="), std::string::npos) << message;
  EXPECT_EQ(message.find("_dir=" + home), std::string::npos) << message;
  EXPECT_FALSE(std::filesystem::exists(home + "/.triton/cache/planted"));
  EXPECT_FALSE(std::filesystem::exists(home + "/.nv/ComputeCache/planted"));
}

// The candidate's scratch folder is its own to fill, and the judge reads and writes there as
// itself, with more reach than the candidate: it follows no link the candidate left. Its output log
// replaced by a link to a file of the user's (secrets_output_log_symlink.py) was quoted in the
// crash's stored message before session 46; links named as the build service's copy folders
// (escape_build_copy_through_symlink.py) had the worker write the candidate's library into its own
// scratch folder.
TEST(CpuIsolation, TheJudgeFollowsNoLinkACandidateLeft) {
  TempDir dir;
  const std::string home = dir.file("home");
  const std::string secret = "sk-kforge-linked-log-secret";
  dir.write("home/secret.txt", secret + "\n");
  auto r = run_command({"/usr/bin/env", "HOME=" + home, "XDG_CACHE_HOME=" + dir.file("cache"), KFORGE_BINARY, "--db",
                        dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.3", "--problem",
                        source_path(kProblem), source_path("tests/adversarial/secrets_output_log_symlink.py"),
                        source_path("tests/adversarial/escape_build_copy_through_symlink.py")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  EXPECT_EQ(got["secrets_output_log_symlink.py"].value("verdict", ""), "crashed") << got["secrets_output_log_symlink.py"].dump();
  EXPECT_EQ(got["escape_build_copy_through_symlink.py"].value("verdict", ""), "correct")
      << got["escape_build_copy_through_symlink.py"].dump();
  EXPECT_EQ(r.out.find(secret), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find(secret), std::string::npos) << r.err;
  const std::string bytes = read_whole_file(dir.file("k.db"));
  EXPECT_FALSE(bytes.empty());
  EXPECT_EQ(bytes.find(secret), std::string::npos) << "the store holds the secret";
}

// The load_inline prebuild (`kforge build`, and `kforge eval` on a GPU with more such candidates
// than workers) imports each candidate, which runs its module-level code: in the candidate
// sandbox, in an environment without credentials. The import says what it reached by raising.
TEST(CpuIsolation, APrebuildImportIsConfined) {
  TempDir dir;
  const std::string secret = dir.write("secret.txt", "sk-kforge-prebuild-file\n");
  const std::string escaped = dir.file("escaped.txt");
  const std::string planted = dir.file("cache") + "/kforge/build/objects/planted";
  std::filesystem::create_directories(dir.file("cache") + "/kforge/build/objects");
  // Another candidate's built library: the prebuild records and loads nothing, so reads none.
  const std::string sibling = dir.write("cache/kforge/build/objects/sibling/candidate.so", "sibling-library\n");
  dir.write("candidates/level1/1_Square_Matmul/reach.py", R"(import os
from torch.utils.cpp_extension import load_inline  # what makes kforge build import it


def attempt(f):
    try:
        return f()
    except OSError:
        return "denied"


key = os.environ.get("KFORGE_TEST_API_KEY", "unset")
content = attempt(lambda: open(")" + secret + R"(").read().strip())
wrote = attempt(lambda: open(")" + escaped + R"(", "w").write("x"))
cache = attempt(lambda: open(")" + planted + R"(", "w").write("x"))
sibling = attempt(lambda: open(")" + sibling + R"(").read().strip())
raise RuntimeError(f"REACHED env={key} file={content} write={wrote} cache={cache} sibling={sibling}")
)");
  auto r = run_command({"/usr/bin/env", "KFORGE_TEST_API_KEY=sk-kforge-prebuild-env", "XDG_CACHE_HOME=" + dir.file("cache"),
                        KFORGE_BINARY, "build", "--arch", "sm_90", "--json", dir.file("candidates")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("REACHED env=unset file=denied write=denied cache=denied sibling=denied"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("sk-kforge-prebuild"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(escaped));
  EXPECT_FALSE(std::filesystem::exists(planted));
}

// kforge build's results follow the import's output, which the candidate's code writes: a line it
// printed in their form must not stand as a build's result (before session 46 this row said
// "cached" with the forged strategy for a candidate that built nothing).
TEST(CpuIsolation, APrebuildImportCannotPrintItsOwnBuildResult) {
  TempDir dir;
  dir.write("candidates/level1/1_Square_Matmul/forges.py", R"(import json
from torch.utils.cpp_extension import load_inline  # what makes kforge build import it

print("kforge-inline-result " + json.dumps({"ok": True, "cached": True, "strategy": "forged", "name": "fused"}), flush=True)
)");
  auto r = run_command({"/usr/bin/env", "XDG_CACHE_HOME=" + dir.file("cache"), KFORGE_BINARY, "build", "--arch", "sm_90",
                        "--json", dir.file("candidates")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("forged"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"cached\""), std::string::npos) << r.out;
}

// A candidate's module-level code runs in the prebuild's import too, before any job: a thread bomb
// there is ended by the same task bound as a candidate process's (pool/task_count.hpp), not left to
// fill the machine's task table while the build goes on.
TEST(CpuIsolation, APrebuildImportsTaskBombIsEnded) {
  TempDir dir;
  dir.write("candidates/level1/1_Square_Matmul/bomb.py", R"(import threading, time
from torch.utils.cpp_extension import load_inline  # what makes kforge build import it

for _ in range(4000):
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
raise RuntimeError("every thread started")
)");
  auto r = run_command({"/usr/bin/env", "XDG_CACHE_HOME=" + dir.file("cache"), KFORGE_BINARY, "build", "--arch", "sm_90",
                        "--json", dir.file("candidates")});
  EXPECT_NE(r.out.find("threads or more, past the bound of"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.out.find("every thread started"), std::string::npos) << r.out;
}

// The reference's timed calls are made in a process of its own, started and called as the
// candidate's is (the reference twin, src/worker/evaluate.cpp): an identity candidate is timed
// as its reference. With the reference timed inside the reference process, this identity ran at
// 1.9-2.1x on the development machine (each reference call on the CPU cost about 0.07 ms more
// there); with the twin at 1.01-1.05. The bound is far from both.
TEST(CpuIsolation, AnIdentityIsTimedAsItsReference) {
  TempDir dir;
  const nlohmann::json line = correct_identity(dir, "1");
  ASSERT_FALSE(line.is_null());
  const double speedup = line.value("speedup", 0.0);
  EXPECT_GT(speedup, 0.67) << line.dump();
  EXPECT_LT(speedup, 1.5) << line.dump();
}

// The reference's timed pairs take turns between two twins (worker/reference_twin.hpp), and the
// message says how far apart they came; KFORGE_WORKER_TWINS=1 times it in one, and says nothing.
TEST(CpuIsolation, TheReferenceIsTimedInTwoProcesses) {
  for (const char* twins : {"2", "1"}) {
    TempDir dir;
    ScopedEnv count("KFORGE_WORKER_TWINS", twins);
    const nlohmann::json line = correct_identity(dir, "0.5");
    ASSERT_FALSE(line.is_null());
    const std::string message = line.value("message", "");
    const size_t note = message.find("; the reference's two timing processes ");
    // The stored record: which process timed each reference sample (none with one process).
    Store store(dir.file("k.db"));
    const auto run = store.latest_run();
    ASSERT_TRUE(run);
    const auto records = store.run_evaluations(*run);
    ASSERT_EQ(records.size(), 1u);
    const EvaluationRecord& stored = records.front();
    if (std::string(twins) == "2") {
      ASSERT_NE(note, std::string::npos) << message;
      // "N.NN% apart": a figure, and a sane one for two processes of the same code.
      const double apart = std::stod(message.substr(note + std::strlen("; the reference's two timing processes ")));
      EXPECT_GE(apart, 0.0) << message;
      EXPECT_LT(apart, 50.0) << message;
      EXPECT_NE(message.find("% apart", note), std::string::npos) << message;
      // Both processes in the store, one for each sample, and the message's figure computed
      // again from what is stored, as the executor computed it.
      ASSERT_EQ(stored.ref_process.size(), stored.ref_samples_ms.size());
      EXPECT_NE(std::count(stored.ref_process.begin(), stored.ref_process.end(), 0), 0);
      EXPECT_NE(std::count(stored.ref_process.begin(), stored.ref_process.end(), 1), 0);
      const auto clock =
          stats::choose_clock(stored.ref_samples_ms, stored.cand_samples_ms, stored.ref_host_ms, stored.cand_host_ms);
      const auto again = stats::reference_processes_apart(clock.host ? stored.ref_host_ms : stored.ref_samples_ms,
                                                          clock.host ? stored.cand_host_ms : stored.cand_samples_ms,
                                                          stored.ref_process);
      ASSERT_TRUE(again);
      EXPECT_NEAR(100 * *again, apart, 0.0051) << message;
    } else {
      EXPECT_EQ(note, std::string::npos) << message;
      EXPECT_TRUE(stored.ref_process.empty());
    }
  }
}

// A reference whose speed each process draws (here a sleep of 1-11 ms a call, 1.5 times longer for
// each step of its process id modulo 7, so two processes draw at least 50% apart unless their ids
// agree modulo 7, a seventh of the time): the twins' distance, far past the noise, widens the
// interval, the worker does not keep them, and the problem's next candidate gets a new pair. A
// fresh worker draws again where one attempt's twins happened to agree (four attempts: all
// agreeing about once in 2,400 runs).
TEST(CpuIsolation, TwinsThatDrawApartWidenTheIntervalAndAreNotKept) {
  const std::string problem =
      problem_with_forward_prelude("        import os, time\n        time.sleep(0.001 * 1.5 ** (os.getpid() % 7))\n");
  ASSERT_FALSE(problem.empty());
  bool drew_apart = false;
  for (int attempt = 0; attempt < 4 && !drew_apart; ++attempt) {
    TempDir dir;
    ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
    ScopedEnv trace("KFORGE_WORKER_PHASE_TRACE", "1");
    const std::string path = dir.write("level1/1_Add_ReLU.py", problem);
    auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.5", "--problem",
                         path, dir.write("a.py", problem + "\nModelNew = Model\n# a\n"),
                         dir.write("b.py", problem + "\nModelNew = Model\n# b\n")});
    auto got = r.lines_by_candidate();
    ASSERT_EQ(got.size(), 2u) << r.out << r.err;
    const nlohmann::json& first = got["a.py"];
    ASSERT_EQ(first.value("verdict", ""), "correct") << first.dump();
    const std::string message = first.value("message", "");
    if (message.find("the interval widened to") == std::string::npos) continue;  // this pair agreed
    drew_apart = true;
    const size_t note = message.find("; the reference's two timing processes ");
    ASSERT_NE(note, std::string::npos) << message;
    EXPECT_GT(std::stod(message.substr(note + std::strlen("; the reference's two timing processes "))), 5.0) << message;
    // The interval holds the allowance it says on each side of the sampling interval: wider than
    // the fixed 0.5% by far.
    const auto ci = first.at("speedup_ci");
    EXPECT_GT((ci[1].get<double>() - ci[0].get<double>()) / first.value("speedup", 1.0), 0.05) << first.dump();
    std::string log = cpu_worker_log(dir);
    EXPECT_NE(log.find("twins came"), std::string::npos) << log;
    EXPECT_NE(log.find(": not kept"), std::string::npos) << log;
    // Both jobs started their twins: none was kept from the first.
    size_t starts = 0;
    for (size_t at = log.find("load_twin_start="); at != std::string::npos; at = log.find("load_twin_start=", at + 1)) ++starts;
    EXPECT_EQ(starts, 2u) << log;
    EXPECT_EQ(log.find("load_twin_kept="), std::string::npos) << log;
  }
  EXPECT_TRUE(drew_apart) << "four workers' twins all agreed modulo 7";
}

// A problem whose processes drew speeds apart on this device before gets every later interval
// widened as far (as the twins' own times showed it), though its twins then agree: the candidate's one process may draw where both
// twins agree (level1/83 on the H200: 0.84 with its twins 0.06% apart, session 51). Here the
// reference sleeps by its process id (as above) while the problem file's modification time is
// odd, and not while it is even: one file and one text, so one problem to the store.
TEST(CpuIsolation, AProblemWhoseProcessesDrewApartBeforeIsWidenedWhenItsTwinsAgree) {
  const std::string problem = problem_with_forward_prelude(
      "        import os, time\n"
      "        if int(os.stat(__file__).st_mtime) % 2:\n"
      "            time.sleep(0.001 * 1.5 ** (os.getpid() % 7))\n");
  ASSERT_FALSE(problem.empty());
  TempDir dir;
  ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
  const std::string path = dir.write("level1/1_Add_ReLU.py", problem);
  const auto eval = [&](const std::string& name) {
    auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.5", "--problem",
                         path, dir.write(name, problem + "\nModelNew = Model\n# " + name + "\n")});
    auto lines = r.json_lines();
    EXPECT_EQ(lines.size(), 1u) << r.out << r.err;
    return lines.empty() ? nlohmann::json::object() : lines[0];
  };
  const auto set_modified = [&](time_t seconds) {
    const utimbuf times{seconds, seconds};
    ASSERT_EQ(::utime(path.c_str(), &times), 0);
  };
  // The allowance a side N of "the interval widened to N% a side<after>", or -1.
  const auto widened = [](const std::string& message, const std::string& after) {
    const std::string lead = "the interval widened to ";
    for (size_t at = message.find(lead); at != std::string::npos; at = message.find(lead, at + 1)) {
      const size_t end = message.find("% a side", at);
      if (end != std::string::npos && message.compare(end + std::strlen("% a side"), after.size(), after) == 0)
        return std::stod(message.substr(at + lead.size()));
    }
    return -1.0;
  };
  set_modified(1'700'000'001);  // odd: each process draws
  double drawn = -1;
  for (int attempt = 0; attempt < 4 && drawn < 0; ++attempt) {
    const auto line = eval("drawing_" + std::to_string(attempt) + ".py");
    ASSERT_EQ(line.value("verdict", ""), "correct") << line.dump();
    drawn = widened(line.value("message", ""), " for it");
  }
  ASSERT_GT(drawn, 5.0) << "four pairs of twins all agreed modulo 7";
  set_modified(1'700'000'002);  // even: no draw
  const auto steady = eval("steady.py");
  ASSERT_EQ(steady.value("verdict", ""), "correct") << steady.dump();
  const std::string message = steady.value("message", "");
  // The draw as the drawing twins' own times showed it (at most what their interval got), past
  // whatever this evaluation's own twins give (on a loaded machine they may come apart a little).
  const double remembered =
      widened(message, ": this problem's timing processes drew speeds that far apart on this device before");
  EXPECT_GT(remembered, 5.0) << message;
  EXPECT_LE(remembered, drawn + 0.01) << message;
  EXPECT_LT(widened(message, " for it"), remembered) << message;
  const auto ci = steady.at("speedup_ci");
  EXPECT_GT((ci[1].get<double>() - ci[0].get<double>()) / 2 / steady.value("speedup", 1.0), remembered / 100 - 0.001)
      << steady.dump();
}

// Each side's timed pairs read their inputs from one place in its arena by default, and from
// KFORGE_WORKER_INPUT_LAYOUTS places in turn when it is set (worker/input_layouts.hpp): the
// timing trace gives each timed call's offset, the twin's and the candidate's alike.
TEST(CpuIsolation, InputLayoutsSpreadTheTimedPairsOverTheArena) {
  for (const char* layouts : {"1", "4"}) {
    TempDir dir;
    ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
    ScopedEnv trace("KFORGE_WORKER_TIMING_TRACE", "1");
    ScopedEnv count("KFORGE_WORKER_INPUT_LAYOUTS", layouts);
    const nlohmann::json line = correct_identity(dir, "0.3");
    ASSERT_FALSE(line.is_null());
    std::string log = cpu_worker_log(dir);
    const std::string marker = ": inputs at arena offset ";
    std::map<long long, int> calls_at;  // offset: timed calls (both sides) whose inputs started there
    for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1))
      ++calls_at[std::stoll(log.substr(at + marker.size()))];
    const int samples = line.value("samples", 0);
    int calls = 0;
    for (const auto& [offset, n] : calls_at) calls += n;
    EXPECT_GE(calls, 2 * samples) << log;  // every timed pair's two calls, dropped pairs too
    if (std::string(layouts) == "1") {
      EXPECT_EQ(calls_at.size(), 1u) << log;
      EXPECT_EQ(calls_at.begin()->first, 0) << log;
    } else {
      ASSERT_EQ(calls_at.size(), 4u) << log;
      // The problem's inputs are far under a page: each layout one 2 MiB page past the last.
      long long expected = 0;
      for (const auto& [offset, n] : calls_at) {
        EXPECT_EQ(offset, expected) << log;
        expected += 2 << 20;
      }
    }
  }
}

// The reference twin is kept for the next candidate of the same problem in the same worker
// (an agent's attempts, a folder's samples), and started afresh for another problem: the phase
// trace names which.
TEST(CpuIsolation, AReferenceTwinIsKeptForItsProblemOnly) {
  TempDir dir;
  ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
  ScopedEnv trace("KFORGE_WORKER_PHASE_TRACE", "1");
  // A run folder in the suite's layout (kforge eval finds each candidate's problem by its
  // folder): two identities of level1/28, then one of level1/29, in that order on one worker.
  auto identity_of = [&](const std::string& problem, const std::string& name) {
    std::string text = read_whole_file(source_path("problems/level1/" + problem + ".py"));
    dir.write("run/level1/" + problem + "/" + name, text + "\n\nModelNew = Model\n# " + name + "\n");
  };
  identity_of("28_Sigmoid", "a.py");
  identity_of("28_Sigmoid", "b.py");
  identity_of("29_Tanh", "c.py");
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.3", dir.file("run")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 3u) << r.out << r.err;
  // Both twins are kept: the second Sigmoid job's reference is timed in two processes too.
  for (const auto& line : lines) {
    EXPECT_EQ(line.value("verdict", ""), "correct") << line.dump();
    EXPECT_NE(line.value("message", "").find("the reference's two timing processes"), std::string::npos) << line.dump();
  }
  std::string log = cpu_worker_log(dir);
  std::map<std::string, std::string> trace_of;  // problem file name: its job's phase trace
  const std::vector<std::string> traces = phase_traces(log);  // each job's, in order
  for (const std::string& line : traces)
    for (const char* problem : {"28_Sigmoid", "29_Tanh"})
      if (line.find(problem) != std::string::npos) trace_of[problem] += line + "\n";
  // kforge tells each job whether the next is of its problem: the first Sigmoid job's twins are
  // kept for the second, whose twins end right after its timing (Tanh's is next); Tanh's are kept,
  // since nothing in the run says what comes after it (an agent's next attempt would be served).
  ASSERT_EQ(traces.size(), 3u) << log;
  EXPECT_EQ(traces[0].find("twin_end="), std::string::npos) << traces[0];
  EXPECT_NE(traces[1].find("twin_end="), std::string::npos) << traces[1];
  EXPECT_EQ(traces[2].find("twin_end="), std::string::npos) << traces[2];
  const std::string sigmoid = trace_of["28_Sigmoid"], tanh = trace_of["29_Tanh"];
  // The first Sigmoid job starts its twins, the second is served by them, unless the first found
  // them apart (its log line says so before its phase trace): then the second starts a new pair.
  // Tanh's starts its own.
  const std::vector<std::string> jobs = log_by_evaluation(log);
  ASSERT_EQ(jobs.size(), 3u) << log;
  const bool first_pair_apart = jobs[0].find("twins came") != std::string::npos;
  EXPECT_NE(sigmoid.find("load_twin_start="), std::string::npos) << log;
  if (first_pair_apart)
    EXPECT_EQ(sigmoid.find("load_twin_kept="), std::string::npos) << log;
  else
    EXPECT_NE(sigmoid.find("load_twin_kept="), std::string::npos) << log;
  EXPECT_NE(tanh.find("load_twin_start="), std::string::npos) << log;
  EXPECT_EQ(tanh.find("load_twin_kept="), std::string::npos) << log;
  // In the processes Sigmoid's twins timed in, its problem let go (same folder): no spare taken
  // for them (unless the second Sigmoid job's came apart: then they ended). The first Sigmoid job
  // took spares.
  if (jobs[1].find("twins came") == std::string::npos)
    EXPECT_NE(traces[2].find("twin_process_reused=0.0/2"), std::string::npos) << traces[2];
  else
    EXPECT_EQ(traces[2].find("twin_process_reused="), std::string::npos) << traces[2];
  EXPECT_EQ(traces[0].find("twin_process_reused="), std::string::npos) << traces[0];
}

// A new problem's twins start in the processes the last problem's twins timed in, where their
// sandbox may read it (the same folder), and only there; KFORGE_WORKER_TWINS_ACROSS_PROBLEMS=off
// ends them with their problem. Each reference so timed is still its own problem's: the timing's
// recheck compares the candidate's outputs with its twin's, and a twin still running the last
// problem's Model would have made the identity wrong.
TEST(CpuIsolation, ANewProblemsTwinsReuseTheLastProblemsProcessesInItsFolder) {
  for (const char* across : {"on", "off"}) {
    TempDir dir;
    ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
    ScopedEnv trace("KFORGE_WORKER_PHASE_TRACE", "1");
    ScopedEnv reuse("KFORGE_WORKER_TWINS_ACROSS_PROBLEMS", across);
    // Three problems in this order on one worker: two of one folder, then one of another.
    auto identity_of = [&](const std::string& level, const std::string& problem) {
      std::string text = read_whole_file(source_path("problems/level1/" + problem + ".py"));
      // Each candidate's text its own: kforge reuses a stored result for the same problem and candidate texts.
      dir.write("run/" + level + "/" + problem + "/id.py", text + "\n\nModelNew = Model\n# " + level + "\n");
    };
    identity_of("level1", "28_Sigmoid");
    identity_of("level1", "29_Tanh");
    identity_of("level2", "28_Sigmoid");
    // A suite of our own, where the third is a copy of the first in another folder.
    for (const char* path : {"level1/28_Sigmoid.py", "level1/29_Tanh.py", "level2/28_Sigmoid.py"})
      dir.write(std::string("problems/") + path, read_whole_file(source_path("problems/level1/" + std::string(path).substr(7))));
    auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.3", "--suite",
                         dir.file("problems"), dir.file("run")});
    ASSERT_EQ(r.exit_code, 0) << across << ": " << r.err;
    auto lines = r.json_lines();
    ASSERT_EQ(lines.size(), 3u) << across << ": " << r.out << r.err;
    for (const auto& line : lines) {
      EXPECT_EQ(line.value("verdict", ""), "correct") << across << ": " << line.dump();
      EXPECT_NE(line.value("message", "").find("the reference's two timing processes"), std::string::npos) << line.dump();
    }
    const std::string log = cpu_worker_log(dir);
    const std::vector<std::string> traces = phase_traces(log);
    ASSERT_EQ(traces.size(), 3u) << across;
    const bool on = std::string(across) == "on";
    EXPECT_EQ(traces[0].find("twin_process_reused="), std::string::npos) << traces[0];
    // Tanh's in Sigmoid's processes (unless Sigmoid's twins came apart: then they ended).
    const bool first_apart = log_by_evaluation(log)[0].find("twins came") != std::string::npos;
    if (on && !first_apart)
      EXPECT_NE(traces[1].find("twin_process_reused=0.0/2"), std::string::npos) << traces[1];
    else
      EXPECT_EQ(traces[1].find("twin_process_reused="), std::string::npos) << across << ": " << traces[1];
    // Another folder's problem: spares, whatever the setting.
    EXPECT_EQ(traces[2].find("twin_process_reused="), std::string::npos) << across << ": " << traces[2];
  }
}

// A problem whose Model cannot run in a sandboxed process of its own (here its forward signals
// kforge's process above it, which the worker may and a sandboxed process may not): the reference
// is timed in the reference process as before the twin, the message says so, and the honest
// candidate is judged as ever, never blamed for the reference's trouble.
TEST(CpuIsolation, AReferenceThatCannotRunInItsTwinIsTimedInItsOwnProcess) {
  TempDir dir;
  const std::string problem = problem_with_forward_prelude("        import os\n        os.kill(os.getppid(), 0)\n");
  ASSERT_FALSE(problem.empty());
  std::string honest = read_whole_file(source_path("tests/legit/add_relu_clamp.py"));
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.5", "--problem",
                       dir.write("level1/1_Add_ReLU.py", problem), dir.write("honest.py", honest)});
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out << r.err;
  EXPECT_EQ(lines[0].value("verdict", ""), "correct") << lines[0].dump();
  const std::string message = lines[0].value("message", "");
  EXPECT_NE(message.find("the reference timed in the reference process (the reference's timing process:"), std::string::npos)
      << message;
}

// A problem whose Model one sandboxed process at a time can build: each takes an exclusive flock
// on the problem's file, which a twin may read, and keeps it (the reference process, which may
// probe its parent, takes none). So the first twin to build it starts and the other cannot: the
// reference is timed in the one that did, the message says so, and the candidate is judged as
// ever. Started side by side, which twin that is is a race (until session 51, the second's
// success was thrown away where the first lost it); one after the other, the second fails.
TEST(CpuIsolation, ATwinThatCannotStartLeavesTheOther) {
  std::string problem = read_whole_file(source_path(kProblem));
  const std::string init = "        super().__init__()\n";
  const size_t at = problem.find(init);
  ASSERT_NE(at, std::string::npos) << "the problem has no __init__ where this test expects one";
  problem.insert(at + init.size(),
                 "        import fcntl, os\n"
                 "        try:\n"
                 "            os.kill(os.getppid(), 0)  # allowed in kforge's reference process only\n"
                 "        except PermissionError:\n"
                 "            global held\n"
                 "            held = open(__file__)\n"
                 "            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the second twin: BlockingIOError\n");
  const std::string honest = read_whole_file(source_path("tests/legit/add_relu_clamp.py"));
  for (const char* start : {"side-by-side", "one-by-one"}) {
    TempDir dir;
    ScopedEnv order("KFORGE_WORKER_TWIN_START", start);
    auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.5", "--problem",
                         dir.write("level1/1_Add_ReLU.py", problem), dir.write("honest.py", honest)});
    auto lines = r.json_lines();
    ASSERT_EQ(lines.size(), 1u) << start << ": " << r.out << r.err;
    EXPECT_EQ(lines[0].value("verdict", ""), "correct") << start << ": " << lines[0].dump();
    const std::string message = lines[0].value("message", "");
    EXPECT_NE(message.find("the reference timed in one process (a second did not start: "), std::string::npos)
        << start << ": " << message;
    EXPECT_EQ(message.find("the reference's two timing processes"), std::string::npos) << start << ": " << message;
    EXPECT_EQ(message.find("the reference timed in the reference process"), std::string::npos) << start << ": " << message;
  }
}

// A candidate whose process dies is judged (crashed, with how) and the next one in the same
// reference process is not harmed.
TEST(CpuIsolation, ACrashHarmsOnlyItsCandidate) {
  TempDir dir;
  std::string segfault = read_whole_file(source_path("tests/candidates/segfault.py"));
  dir.write("segfault_copy.py", segfault);
  std::string honest = read_whole_file(source_path("tests/legit/add_relu_clamp.py"));
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.5", "--problem",
                       source_path(kProblem), dir.file("segfault_copy.py"), dir.write("honest.py", honest)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  EXPECT_EQ(got["segfault_copy.py"].value("verdict", ""), "crashed");
  EXPECT_NE(got["segfault_copy.py"].value("message", "").find("signal 11"), std::string::npos);
  EXPECT_EQ(got["honest.py"].value("verdict", ""), "correct") << got["honest.py"].dump();
}

// A job that runs out of memory while kforge's spare processes hold theirs is evaluated once more
// with them ended (worker/job_loop.cpp): on an H100 an identity candidate came runtime_error beside
// them. A candidate that only claims to be out of memory gains a second evaluation, judged as the
// first, and no third; the candidate after it is judged as ever.
TEST(CpuIsolation, AJobOutOfMemoryBesideTheSparesIsEvaluatedAgainWithoutThem) {
  TempDir dir;
  ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
  const std::string claims = read_whole_file(source_path(kProblem)) +
                             "\n\nclass ModelNew(Model):\n"
                             "    def forward(self, *args):\n"
                             "        raise MemoryError('out of memory (a claim)')\n";
  std::string honest = read_whole_file(source_path("tests/legit/add_relu_clamp.py"));
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.5", "--problem",
                       source_path(kProblem), dir.write("claims_oom.py", claims), dir.write("honest.py", honest)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  const std::string message = got["claims_oom.py"].value("message", "");
  EXPECT_EQ(got["claims_oom.py"].value("verdict", ""), "runtime_error") << message;
  EXPECT_NE(message.find("out of memory (a claim)"), std::string::npos) << message;
  const std::string again = "evaluated again after it ran out of memory beside ";
  const size_t first = message.find(again);
  EXPECT_NE(first, std::string::npos) << message;
  if (first != std::string::npos) {
    EXPECT_EQ(message.find(again, first + 1), std::string::npos) << "evaluated a third time: " << message;
  }
  const std::string log = cpu_worker_log(dir);
  EXPECT_NE(log.find("spare processes (ModelNew.forward raised"), std::string::npos) << log.substr(0, 4000);
  EXPECT_EQ(got["honest.py"].value("verdict", ""), "correct") << got["honest.py"].dump();
  EXPECT_EQ(got["honest.py"].value("message", "").find(again), std::string::npos) << got["honest.py"].dump();
}

// The OOM killer's first choice is the candidate's process: a memory bomb that outgrows the
// machine between two looks of the tree's memory bound (pool/tree_memory.hpp) ends the candidate,
// not the judge, the largest process before (session 47). The candidate reads its score and tries
// to lower it, through its own /proc folder and through a thread's (each thread's folder holds the
// process's score too), and says what it found in its error. The kernel alone would let it lower
// the score to kforge's own (0) where kforge lacks CAP_SYS_RESOURCE, as a container's root does;
// Landlock leaves a candidate no /proc file to write, so every try is refused; a thread still names
// itself (a system call), and naming another thread, a write in /proc, is refused.
TEST(CpuIsolation, TheOomKillerTakesTheCandidateFirst) {
  TempDir dir;
  const std::string probe = identity_of_problem() + R"PY(
import threading

def _score():
    with open("/proc/self/oom_score_adj") as f:
        return int(f.read())

def _try(path, value):
    try:
        with open(path, "w") as f:
            f.write(value)
        return "taken"
    except OSError:
        return "refused"

_start, _tries = _score(), []
_thread = f"/proc/self/task/{threading.get_native_id()}/oom_score_adj"
for _value in ("-1000", "0"):
    _tries.append(f"{_value} {_try('/proc/self/oom_score_adj', _value)} (process), {_try(_thread, _value)} (thread)")

# Thread names: a thread names itself by prctl; another thread's name is a write in /proc.
import ctypes
_libc = ctypes.CDLL(None)
_libc.pthread_self.restype = ctypes.c_ulong
_libc.pthread_setname_np.argtypes = [ctypes.c_ulong, ctypes.c_char_p]
_other_handle, _named = [], threading.Event()

def _other_thread():  # lives until it has been named, so its handle stays valid
    _other_handle.append(_libc.pthread_self())
    _named.wait()

_other = threading.Thread(target=_other_thread)
_other.start()
while not _other_handle:
    pass
_names = (_libc.pthread_setname_np(_libc.pthread_self(), b"kf-self"), _libc.pthread_setname_np(_other_handle[0], b"kf-other"))
_named.set()
_other.join()
raise RuntimeError(f"oom_score_adj {_start} at start; {'; '.join(_tries)}; {_score()} after; "
                   f"naming itself {_names[0]}, another thread {_names[1]}")
)PY";
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.5", "--problem",
                       source_path(kProblem), dir.write("oom_score_probe.py", probe)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json got = r.lines_by_candidate()["oom_score_probe.py"];
  EXPECT_NE(got.value("verdict", ""), "correct") << got.dump();
  EXPECT_NE(got.value("message", "").find("oom_score_adj 1000 at start; -1000 refused (process), refused (thread); "
                                          "0 refused (process), refused (thread); 1000 after"),
            std::string::npos)
      << got.dump();
  // 0 (named), 13 (EACCES): the C library writes another thread's name in /proc.
  EXPECT_NE(got.value("message", "").find("naming itself 0, another thread 13"), std::string::npos) << got.dump();
}

// Whether `pid` is still a live process (not gone, not a zombie waiting to be reaped).
bool alive(int pid) {
  std::string stat = read_whole_file("/proc/" + std::to_string(pid) + "/stat");
  auto paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z' && stat[paren + 2] != 'X';
}

// kforge started in the background with `args` (its pid; 0 where it could not be started).
pid_t spawn_kforge(std::vector<std::string> args) {
  args.insert(args.begin(), KFORGE_BINARY);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  return ::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) == 0 ? pid : 0;
}

// kforge killed outright (SIGKILL) in the middle of a job: its worker, the zygote and the
// candidate's process die with it, and the next kforge removes the scratch folders it left.
TEST(CpuIsolation, AKilledKforgeLeavesNothingBehind) {
  TempDir dir;
  TempDir tmp;
  ScopedEnv env("TMPDIR", tmp.path().string());
  // Says where it runs, then waits in forward until it is killed.
  std::string candidate = dir.write("waits.py", R"(import os, time
import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def forward(self, a, b):
        with open("pids", "w") as f:
            f.write(f"{os.getpid()} {os.getppid()}")
        time.sleep(600)
        return torch.relu(a + b)
)");
  pid_t kforge = spawn_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--timeout", "300", "--problem",
                               source_path(kProblem), candidate});
  ASSERT_GT(kforge, 0);
  // The candidate's process writes its pid and its zygote's into its scratch folder.
  std::vector<int> pids;
  for (int i = 0; i < 600 && pids.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::error_code ec;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(tmp.path(), ec))
      if (entry.path().filename() == "pids") {
        std::ifstream in(entry.path());
        int a = 0, b = 0;
        if (in >> a >> b) pids = {a, b};
      }
  }
  ::kill(kforge, SIGKILL);
  int status = 0;
  ::waitpid(kforge, &status, 0);
  ASSERT_EQ(pids.size(), 2u) << "the candidate never ran";
  for (int i = 0; i < 100 && (alive(pids[0]) || alive(pids[1])); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(alive(pids[0])) << "the candidate's process outlived kforge";
  EXPECT_FALSE(alive(pids[1])) << "the zygote outlived kforge";

  // The next kforge sweeps the dead one's scratch folder when it starts its worker.
  std::string honest = read_whole_file(source_path("tests/legit/add_relu_clamp.py"));
  auto r = run_kforge({"--db", dir.file("k2.db"), "eval", "--device", "cpu", "--max-time", "0.3", "--problem",
                       source_path(kProblem), dir.write("honest.py", honest)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const auto& entry : std::filesystem::directory_iterator(tmp.path()))
    ADD_FAILURE() << "left behind: " << entry.path();
}

// kforge ended by SIGTERM (a `timeout` in a script, a batch system's job end) while a problem tool
// runs (here `problems info` importing a problem that waits): the tool dies with it. An orphaned
// max-autotune baseline once kept the H200 busy, and every candidate judged beside it was rejected.
TEST(CpuIsolation, AProblemToolDiesWithKforge) {
  TempDir dir;
  std::string problem = dir.write("level1/1_Waits.py", "import os, time\n"
                                                       "with open(os.path.join(os.path.dirname(__file__), 'pid'), 'w') as f:\n"
                                                       "    f.write(str(os.getpid()))\n"
                                                       "time.sleep(600)\n");
  pid_t kforge = spawn_kforge({"--db", dir.file("k.db"), "problems", "info", "--json", problem});
  ASSERT_GT(kforge, 0);
  int tool = 0;
  for (int i = 0; i < 600 && tool == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::ifstream in(dir.file("level1/pid"));
    in >> tool;
  }
  ::kill(kforge, SIGTERM);
  int status = 0;
  ::waitpid(kforge, &status, 0);
  ASSERT_GT(tool, 0) << "the problem tool never imported the problem";
  for (int i = 0; i < 100 && alive(tool); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(alive(tool)) << "the problem tool outlived kforge";
  if (alive(tool)) ::kill(tool, SIGKILL);
}

}  // namespace
}  // namespace kforge::testing
