// The build service against the real g++ (no GPU, no torch): static checks, the cache, concurrent
// builders, eviction, deadlines and runaway output, and the condensed diagnostics.
#include "build/build_service.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "build/diagnostics.hpp"
#include "support/temp_dir.hpp"

namespace kforge::build {
namespace {

using testing::TempDir;

constexpr const char* kGood =
    "#include <kforge/candidate.h>\n"
    "KFORGE_CANDIDATE(1) {\n"
    "  float* out = static_cast<float*>(ctx->outputs[0].data);\n"
    "  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) out[i] = 1.0f;\n"
    "  return 0;\n"
    "}\n";

BuildService service_in(const TempDir& dir, uint64_t max_bytes = 1ull << 30) {
  BuildSettings s;
  s.cache_dir = dir.path() / "cache";
  s.max_cache_bytes = max_bytes;
  s.timeout = std::chrono::seconds(60);
  s.jobs = 2;
  return BuildService(s);
}

TEST(NativeSourceChecks, VersionIncludesKernels) {
  EXPECT_FALSE(check_native_source(Format::cpp, kGood));
  EXPECT_NE(check_native_source(Format::cpp, "int x;")->find("KFORGE_CANDIDATE"), std::string::npos);
  EXPECT_NE(check_native_source(Format::cpp, "KFORGE_CANDIDATE(2) {}")->find("version 2"), std::string::npos);
  EXPECT_NE(check_native_source(Format::cpp, "#include \"mine.h\"\nKFORGE_CANDIDATE(1) {}")->find("outside"),
            std::string::npos);
  EXPECT_NE(check_native_source(Format::cpp, "#include </etc/passwd>\nKFORGE_CANDIDATE(1) {}")->find("outside"),
            std::string::npos);
  EXPECT_FALSE(check_native_source(Format::cpp, "#include <vector>\n#include \"kforge/candidate.h\"\nKFORGE_CANDIDATE(1) {}"));
  EXPECT_NE(check_native_source(Format::cuda, "KFORGE_CANDIDATE(1) {}")->find("__global__"), std::string::npos);
  EXPECT_FALSE(check_native_source(Format::cuda, "__global__ void k() {}\nKFORGE_CANDIDATE(1) {}"));
  // Comments are not code: a kernel or an include named in one does not count.
  EXPECT_TRUE(check_native_source(Format::cuda, "// no __global__ here\n/* __global__ */\nKFORGE_CANDIDATE(1) {}"));
  EXPECT_FALSE(check_native_source(Format::cpp, "// #include \"x.h\"\nKFORGE_CANDIDATE(1) {}"));
  EXPECT_TRUE(check_native_source(Format::cpp, "/* KFORGE_CANDIDATE(1) */ int x;"));
  EXPECT_FALSE(check_native_source(Format::cpp, "const char* s = \"// not a comment\";\nKFORGE_CANDIDATE(1) {}"));
}

TEST(BuildService, BuildsOnceThenServesFromTheCache) {
  TempDir dir;
  auto service = service_in(dir);
  BuildRequest request{Format::cpp, kGood, "good.cpp", ""};
  auto first = service.build(request);
  ASSERT_TRUE(first.ok) << first.diagnostics << first.log;
  EXPECT_FALSE(first.cached);
  EXPECT_TRUE(std::filesystem::exists(first.library));
  // When it was built, for a run's build timeline (meta.json's mtime moves on every hit).
  const auto meta = nlohmann::json::parse(std::ifstream(first.library.parent_path() / "meta.json"));
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_GT(meta.value("finished_at", 0.0), now - 60) << meta.dump();
  EXPECT_LE(meta.value("finished_at", 0.0), now) << meta.dump();
  auto second = service.build(request);
  EXPECT_TRUE(second.ok);
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(second.key, first.key);
  EXPECT_EQ(second.library, first.library);
  // Another process's service sees the same entry.
  auto other = service_in(dir).build(request);
  EXPECT_TRUE(other.cached);
  // A different source is a different build.
  BuildRequest changed{Format::cpp, std::string(kGood) + "// changed\n", "good.cpp", ""};
  EXPECT_NE(service.key_of(changed), first.key);
}

TEST(BuildService, FailuresAreDiagnosedAndCached) {
  TempDir dir;
  auto service = service_in(dir);
  std::string bad = "#include <kforge/candidate.h>\nKFORGE_CANDIDATE(1) {\n  return undefined_name;\n}\n";
  auto first = service.build({Format::cpp, bad, "bad.cpp", ""});
  EXPECT_FALSE(first.ok);
  EXPECT_NE(first.diagnostics.find("bad.cpp:3: error:"), std::string::npos) << first.diagnostics;
  EXPECT_NE(first.diagnostics.find("undefined_name"), std::string::npos) << first.diagnostics;
  EXPECT_EQ(first.diagnostics.find("candidate.cpp"), std::string::npos) << first.diagnostics;
  EXPECT_FALSE(first.log.empty());
  auto second = service.build({Format::cpp, bad, "bad.cpp", ""});
  EXPECT_FALSE(second.ok);
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(second.diagnostics, first.diagnostics);
  // The same source under another name: the cached diagnostics name the file asked for.
  auto renamed = service.build({Format::cpp, bad, "other_name.cpp", ""});
  EXPECT_TRUE(renamed.cached);
  EXPECT_NE(renamed.diagnostics.find("other_name.cpp:3: error:"), std::string::npos) << renamed.diagnostics;
  EXPECT_EQ(renamed.diagnostics.find("bad.cpp"), std::string::npos) << renamed.diagnostics;
}

TEST(BuildService, ConcurrentBuildersAgree) {
  TempDir dir;
  std::vector<BuildOutcome> outcomes(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] { outcomes[i] = service_in(dir).build({Format::cpp, kGood, "good.cpp", ""}); });
  for (auto& t : threads) t.join();
  for (const auto& o : outcomes) {
    ASSERT_TRUE(o.ok) << o.diagnostics;
    EXPECT_EQ(o.library, outcomes[0].library);
    EXPECT_TRUE(std::filesystem::exists(o.library));
  }
  // Nothing half-built is left behind.
  size_t leftovers = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path() / "cache" / "tmp")) ++leftovers;
  EXPECT_EQ(leftovers, 0u);
}

uint64_t bytes_under(const std::filesystem::path& dir) {
  uint64_t total = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) total += e.file_size();
  return total;
}

TEST(BuildService, EvictsLeastRecentlyUsed) {
  TempDir dir;
  auto a = service_in(dir).build({Format::cpp, std::string(kGood) + "// a\n", "a.cpp", ""});
  ASSERT_TRUE(a.ok) << a.diagnostics;
  uint64_t one_entry = bytes_under(dir.path() / "cache" / "objects");
  // Room for one and a half entries: publishing b pushes a, the least recently used, out.
  auto bounded = service_in(dir, one_entry * 3 / 2);
  auto b = bounded.build({Format::cpp, std::string(kGood) + "// b\n", "b.cpp", ""});
  ASSERT_TRUE(b.ok) << b.diagnostics;
  EXPECT_FALSE(std::filesystem::exists(a.library));
  EXPECT_TRUE(std::filesystem::exists(b.library));
  auto again = bounded.build({Format::cpp, std::string(kGood) + "// a\n", "a.cpp", ""});
  EXPECT_TRUE(again.ok);
  EXPECT_FALSE(again.cached);  // rebuilt after eviction
}

// A build killed with its worker leaves its folder in tmp/ (or a precompiled header's, 750 MB, in
// pch/): the next build that publishes removes those older than any build runs, not younger ones.
TEST(BuildService, AbandonedBuildFoldersAreRemoved) {
  TempDir dir;
  const auto cache = dir.path() / "cache";
  const auto old_time = std::filesystem::file_time_type::clock::now() - std::chrono::hours(3);
  for (const auto& folder : {cache / "tmp" / "killed.1", cache / "pch" / "abc.tmp123", cache / "tmp" / "running.2"})
    std::filesystem::create_directories(folder / "part");
  std::filesystem::last_write_time(cache / "tmp" / "killed.1", old_time);
  std::filesystem::last_write_time(cache / "pch" / "abc.tmp123", old_time);
  auto built = service_in(dir).build({Format::cpp, std::string(kGood) + "// abandoned\n", "c.cpp", ""});
  ASSERT_TRUE(built.ok) << built.diagnostics;
  EXPECT_FALSE(std::filesystem::exists(cache / "tmp" / "killed.1"));
  EXPECT_FALSE(std::filesystem::exists(cache / "pch" / "abc.tmp123"));
  EXPECT_TRUE(std::filesystem::exists(cache / "tmp" / "running.2"));  // a build still under way
}

std::string fake_compiler(const TempDir& dir, const std::string& body) {
  std::string path = dir.write("fake-cxx.sh", "#!/bin/sh\n" + body + "\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(BuildService, HangingCompilerHitsTheDeadline) {
  TempDir dir;
  ::setenv("KFORGE_CXX", fake_compiler(dir, "sleep 30").c_str(), 1);
  BuildSettings s;
  s.cache_dir = dir.path() / "cache";
  s.timeout = std::chrono::seconds(1);
  BuildService service(s);
  auto t0 = std::chrono::steady_clock::now();
  auto out = service.build({Format::cpp, kGood, "good.cpp", ""});
  ::unsetenv("KFORGE_CXX");
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.diagnostics.find("did not finish within 1 s"), std::string::npos) << out.diagnostics;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

TEST(BuildService, EnormousOutputIsCapped) {
  TempDir dir;
  // 4 MB of error lines, then failure.
  ::setenv("KFORGE_CXX",
           fake_compiler(dir, "i=0; while [ $i -lt 40000 ]; do echo \"x.cpp:$i:1: error: same thing again and again and "
                              "again and again and again and again\"; i=$((i+1)); done; exit 1")
               .c_str(),
           1);
  auto out = service_in(dir).build({Format::cpp, kGood, "good.cpp", ""});
  ::unsetenv("KFORGE_CXX");
  EXPECT_FALSE(out.ok);
  EXPECT_LE(out.log.size(), (1u << 20) + 100);
  EXPECT_LE(out.diagnostics.size(), 2100u);
  EXPECT_NE(out.diagnostics.find("more distinct errors"), std::string::npos) << out.diagnostics;
}

size_t leftovers_in(const std::filesystem::path& dir) {
  size_t n = 0;
  std::error_code ec;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir, ec)) ++n;
  return n;
}

// A full disk, simulated with RLIMIT_FSIZE (no root needed): writes past the limit fail with
// EFBIG, as they would with ENOSPC. The compiler hitting it: compile_error that says so, nothing
// cached, and the same build succeeds once there is room again.
TEST(BuildService, FullDiskUnderTheCompilerIsNotCached) {
  TempDir dir;
  ::setenv("KFORGE_CXX", fake_compiler(dir, "trap '' XFSZ; ulimit -f 4; exec g++ \"$@\"").c_str(), 1);
  auto full = service_in(dir).build({Format::cpp, kGood, "good.cpp", ""});
  ::unsetenv("KFORGE_CXX");
  EXPECT_FALSE(full.ok);
  EXPECT_NE(full.diagnostics.find("the disk refused a write during the build"), std::string::npos) << full.diagnostics;
  EXPECT_NE(full.diagnostics.find("File too large"), std::string::npos) << full.diagnostics;
  EXPECT_EQ(leftovers_in(dir.path() / "cache" / "objects"), 0u);
  EXPECT_EQ(leftovers_in(dir.path() / "cache" / "tmp"), 0u);
  auto roomy = service_in(dir).build({Format::cpp, kGood, "good.cpp", ""});
  EXPECT_TRUE(roomy.ok) << roomy.diagnostics;
  EXPECT_FALSE(roomy.cached);
}

// The compiler's temporary folder gone (a killed worker's scratch folder, its TMPDIR, removed
// under a build that went on): the failure says nothing about the source, so it is not cached
// (it once was, and every later evaluation of that candidate was a compile_error).
TEST(BuildService, NoTemporaryFolderIsNotCached) {
  TempDir dir;
  // As g++ fails when no folder takes its temporary files (libiberty's words).
  ::setenv("KFORGE_CXX",
           fake_compiler(dir, "echo 'Cannot create temporary file in /tmp/: Permission denied' >&2; exit 1").c_str(), 1);
  auto failed = service_in(dir).build({Format::cpp, kGood, "good.cpp", ""});
  ::unsetenv("KFORGE_CXX");
  EXPECT_FALSE(failed.ok);
  EXPECT_NE(failed.diagnostics.find("the compiler could not write its temporary files"), std::string::npos) << failed.diagnostics;
  EXPECT_EQ(leftovers_in(dir.path() / "cache" / "objects"), 0u);
  auto again = service_in(dir).build({Format::cpp, kGood, "good.cpp", ""});
  EXPECT_TRUE(again.ok) << again.diagnostics;
  EXPECT_FALSE(again.cached);
}

// kforge's own writes hitting a full disk: the source (before compiling) and the log (when
// publishing). Each is a failed build with a message; the cache holds no entry, half or whole.
TEST(BuildService, FullDiskUnderTheCacheLeavesItIntact) {
  TempDir dir;
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 2048;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  // A 4 KB source cannot be written.
  auto big_source = service_in(dir).build({Format::cpp, std::string(kGood) + "//" + std::string(4000, 'x') + "\n", "big.cpp", ""});
  // A compiler that succeeds but prints 3 KB of warnings: the log cannot be stored.
  ::setenv("KFORGE_CXX", fake_compiler(dir, "head -c 3000 /dev/zero | tr '\\0' w; exit 0").c_str(), 1);
  auto big_log = service_in(dir).build({Format::cpp, kGood, "good.cpp", ""});
  ::unsetenv("KFORGE_CXX");
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::signal(SIGXFSZ, old_handler);

  EXPECT_FALSE(big_source.ok);
  EXPECT_NE(big_source.diagnostics.find("cannot prepare the build"), std::string::npos) << big_source.diagnostics;
  EXPECT_FALSE(big_log.ok);
  EXPECT_NE(big_log.diagnostics.find("cannot store the build"), std::string::npos) << big_log.diagnostics;
  EXPECT_EQ(leftovers_in(dir.path() / "cache" / "objects"), 0u);
  EXPECT_EQ(leftovers_in(dir.path() / "cache" / "tmp"), 0u);
}

TEST(Diagnostics, FoldsAndMapsNames) {
  std::string log =
      "/tmp/b/candidate.cu(12): error: identifier \"foo\" is undefined\n"
      "/tmp/b/candidate.cu(12): error: identifier \"foo\" is undefined\n"
      "/tmp/b/candidate.cu:20:3: error: expected ';'\n"
      "   20 |   x = 1\n"
      "      |        ^\n"
      "2 errors detected\n";
  std::string d = condense_diagnostics(log, "/tmp/b/candidate.cu", "mine.cu");
  EXPECT_NE(d.find("mine.cu:12: error: identifier \"foo\" is undefined"), std::string::npos) << d;
  EXPECT_NE(d.find("mine.cu:20: error: expected ';'"), std::string::npos) << d;
  EXPECT_NE(d.find("1 repeated errors folded"), std::string::npos) << d;
  EXPECT_EQ(d.find("/tmp/b"), std::string::npos) << d;
}

TEST(Diagnostics, UnknownShapesKeepTheTail) {
  std::string d = condense_diagnostics("ld: cannot find -lfoo\ncollect2: linker failed\n", "x", "y");
  EXPECT_NE(d.find("cannot find -lfoo"), std::string::npos);
}

TEST(Diagnostics, PtxasResources) {
  std::string log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z4reluPKfPfl' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z4reluPKfPfl\n"
      "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 18 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]\n";
  auto k = parse_ptxas_resources(log);
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].kernel, "_Z4reluPKfPfl");
  EXPECT_EQ(k[0].registers, 18);
  EXPECT_EQ(k[0].shared_bytes, 2048);
  EXPECT_EQ(k[0].spill_store_bytes, 4);
  EXPECT_EQ(k[0].stack_bytes, 8);
}

}  // namespace
}  // namespace kforge::build
