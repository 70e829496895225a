// The compile sandbox (build/compilers.hpp) against the real g++ and the kernel's Landlock: a
// build of a candidate's sources and flags (load_inline's, a native candidate's), in a process
// that may write the build cache, writes only its own build's folder and reads only the folders
// it was given.
#include "build/compilers.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "build/inline_build.hpp"
#include "common/colon_list.hpp"
#include "common/landlock.hpp"
#include "support/temp_dir.hpp"

namespace kforge::build {
namespace {

using testing::TempDir;

// A build service whose compilers may read the system's folders only (g++ and its headers live
// there on the development and CI machines), with its cache in `dir`.
BuildService confined_service(const TempDir& dir) {
  BuildSettings s;
  s.cache_dir = dir.path() / "cache";
  s.timeout = std::chrono::seconds(60);
  s.compile_readable = std::vector<std::string>{"/usr", "/lib", "/lib64", "/bin", "/etc"};
  return BuildService(s);
}

// A host-only extension without torch: a load_inline spec as python/kforge_inline.py sends it.
InlineSpec plain_spec(const std::string& name, const std::string& main_cpp, std::vector<std::string> cflags = {},
                      std::vector<std::string> ldflags = {}) {
  InlineSpec spec;
  spec.name = name;
  spec.main_cpp = main_cpp;
  spec.cflags = {"-fPIC", "-std=c++17"};
  spec.cflags.insert(spec.cflags.end(), cflags.begin(), cflags.end());
  spec.ldflags = std::move(ldflags);
  spec.display_name = "load_inline('" + name + "')";
  return spec;
}

// Where the kernel has no Landlock, or g++ (as PATH finds it) is outside the folders above (the
// H200 machine's is in /opt/gcc), these tests have nothing to say.
bool landlock_missing() {
  if (landlock::abi() < 1) return true;
  std::string compiler = gxx_path();
  if (compiler.find('/') == std::string::npos) {
    const char* path = std::getenv("PATH");
    for (const auto& dir : colon_list(path ? path : ""))
      if (::access((dir + "/" + compiler).c_str(), X_OK) == 0) {
        compiler = std::filesystem::canonical(dir + "/" + compiler).string();
        break;
      }
  }
  return compiler.rfind("/usr/", 0) != 0;
}

TEST(CompileSandbox, AnHonestBuildBuildsConfined) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock in this kernel, or a g++ outside /usr";
  TempDir dir;
  BuildService service = confined_service(dir);
  InlineOutcome out = build_inline(service, plain_spec("answer", "extern \"C\" int answer() { return 42; }\n"));
  EXPECT_TRUE(out.build.ok) << out.build.diagnostics << out.build.log;
  EXPECT_TRUE(std::filesystem::exists(out.build.library));
}

// A flag that writes beside the build (the linker's map file, here; -wrapper or -B would run a
// program of the candidate's choosing the same way): denied, and nothing is written there.
TEST(CompileSandbox, AFlagWritesNothingOutsideItsBuild) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock in this kernel, or a g++ outside /usr";
  TempDir dir;
  const std::filesystem::path planted = dir.path() / "cache" / "objects" / "planted.map";
  std::filesystem::create_directories(planted.parent_path());
  BuildService service = confined_service(dir);
  InlineOutcome out = build_inline(service, plain_spec("mapped", "extern \"C\" int answer() { return 42; }\n", {},
                                                       {"-Wl,-Map=" + planted.string()}));
  EXPECT_FALSE(out.build.ok) << out.build.log;
  EXPECT_FALSE(std::filesystem::exists(planted));
}

// A few lines of source that make an object file past the compilers' largest file (a large
// initialised array: 4 MiB here, 40 GiB as easily, on the disk the store and the cache share): the
// assembler's write fails ("File too large"), the build fails with that said, and nothing that
// large is left in the cache. The same array within the limit builds.
TEST(CompileSandbox, AnObjectPastTheLargestFileFailsItsBuild) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock in this kernel, or a g++ outside /usr";
  TempDir dir;
  BuildSettings s;
  s.cache_dir = dir.path() / "cache";
  s.timeout = std::chrono::seconds(60);
  s.compile_readable = std::vector<std::string>{"/usr", "/lib", "/lib64", "/bin", "/etc"};
  s.most_compiler_file_bytes = int64_t{1} << 20;
  BuildService service(s);
  InlineOutcome big = build_inline(service, plain_spec("big", "extern \"C\" const char big[4 << 20] = {1};\n"));
  EXPECT_FALSE(big.build.ok);
  EXPECT_NE((big.build.diagnostics + big.build.log).find("File too large"), std::string::npos)
      << big.build.diagnostics << big.build.log;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(s.cache_dir)) {
    if (!entry.is_regular_file()) continue;
    EXPECT_LE(entry.file_size(), uintmax_t{1} << 20) << entry.path();
  }
  InlineOutcome small = build_inline(service, plain_spec("small", "extern \"C\" const char small[64 << 10] = {1};\n"));
  EXPECT_TRUE(small.build.ok) << small.build.diagnostics << small.build.log;
}

// An include path the candidate names outside what the compilers may read: the secret there is
// neither compiled nor quoted in the diagnostics.
TEST(CompileSandbox, AnIncludeOutsideItsFoldersIsNotRead) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock in this kernel, or a g++ outside /usr";
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "home");
  std::ofstream(dir.path() / "home" / "secret.h") << "sk-kforge-compile-secret\n";
  BuildService service = confined_service(dir);
  InlineOutcome out = build_inline(
      service, plain_spec("reads", "#include \"secret.h\"\nint x;\n", {"-I" + (dir.path() / "home").string()}));
  EXPECT_FALSE(out.build.ok);
  EXPECT_EQ(out.build.diagnostics.find("sk-kforge-compile-secret"), std::string::npos) << out.build.diagnostics;
  EXPECT_EQ(out.build.log.find("sk-kforge-compile-secret"), std::string::npos) << out.build.log;
}

// Nor another candidate's build in the cache: a program its flags run could pass a sibling's
// library off as its own build (the compilers read the cache's precompiled headers only).
TEST(CompileSandbox, AnotherBuildInTheCacheIsNotRead) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock, or g++ outside the system folders";
  TempDir dir;
  BuildService service = confined_service(dir);
  for (const char* folder : {"objects/sibling", "tmp/sibling.1", "pch/header"}) {
    std::filesystem::create_directories(dir.path() / "cache" / folder);
    std::ofstream(dir.path() / "cache" / folder / "part.h") << "int from_cache = 1;\n";
  }
  for (const char* folder : {"objects/sibling", "tmp/sibling.1"}) {
    const std::string header = (dir.path() / "cache" / folder / "part.h").string();
    InlineOutcome out = build_inline(service, plain_spec("sibling", "#include \"" + header + "\"\nint x;\n"));
    EXPECT_FALSE(out.build.ok) << folder << " was read";
  }
  const std::string header = (dir.path() / "cache" / "pch" / "header" / "part.h").string();
  InlineOutcome out = build_inline(service, plain_spec("headers", "#include \"" + header + "\"\nint x;\n"));
  EXPECT_TRUE(out.build.ok) << "the precompiled headers' folder is read: " << out.build.diagnostics << out.build.log;
}

// In a fresh cache the precompiled headers' folder is made after a build's compilers are confined
// (the host unit looks its header up last, and another build may make it meanwhile): read all the
// same. A rule for a folder missing when the sandbox was made used to be dropped, and the first
// honest load_inline build on a fresh machine failed with "extension.h: Permission denied".
TEST(CompileSandbox, TheHeadersFolderMadeAfterTheSandboxIsRead) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock, or g++ outside the system folders";
  TempDir dir;
  BuildService service = confined_service(dir);
  std::filesystem::remove_all(dir.path() / "cache" / "pch");
  const std::filesystem::path build = dir.path() / "cache" / "objects" / "fresh";
  std::filesystem::create_directories(build);
  const Compilers compilers(service.settings(), build);
  std::filesystem::create_directories(dir.path() / "cache" / "pch" / "made-later");
  std::ofstream(dir.path() / "cache" / "pch" / "made-later" / "part.h") << "int from_header = 1;\n";
  std::ofstream(build / "unit.cpp") << "#include \"part.h\"\nint x = from_header;\n";
  ProcessResult r = compilers.run({gxx_path(), "-fsyntax-only", "-I" + (dir.path() / "cache" / "pch" / "made-later").string(),
                                   (build / "unit.cpp").string()},
                                  std::chrono::seconds(60), 64 << 10);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

// Without the setting the same include is read (the build runs in a candidate's sandbox, whose
// own rules then decide): the test above fails for the sandbox's reason, not the include's.
TEST(CompileSandbox, WithoutTheSettingTheIncludeIsRead) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "home");
  std::ofstream(dir.path() / "home" / "secret.h") << "int from_secret = 1;\n";
  BuildSettings s;
  s.cache_dir = dir.path() / "cache";
  BuildService service(s);
  InlineOutcome out = build_inline(
      service, plain_spec("reads", "#include \"secret.h\"\nint x;\n", {"-I" + (dir.path() / "home").string()}));
  EXPECT_TRUE(out.build.ok) << out.build.diagnostics << out.build.log;
}

// A compiler's flags can run a program of the candidate's (`-B DIR/` runs DIR/cc1plus): it may
// signal only its own processes, never another process of the same user (kforge, the reference
// process), by Landlock's signal scope where the kernel has it and by the seccomp rule older
// kernels rely on (forced with KFORGE_WORKER_NO_SIGNAL_SCOPE); its own group it still may.
TEST(CompileSandbox, ACompilersSignalsStayInItsOwnProcesses) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock, or g++ outside the system folders";
  for (bool seccomp_only : {false, true}) {
    SCOPED_TRACE(seccomp_only ? "seccomp only" : "Landlock signal scope where the kernel has it");
    const pid_t bystander = ::fork();  // stands for kforge: a process of the same user outside the build
    if (bystander == 0) {
      ::pause();
      ::_exit(0);
    }
    ASSERT_GT(bystander, 0);
    TempDir dir;
    std::filesystem::create_directories(dir.path() / "build");
    if (seccomp_only) ::setenv("KFORGE_WORKER_NO_SIGNAL_SCOPE", "1", 1);
    const Compilers compilers(confined_service(dir).settings(), dir.path() / "build");
    ::unsetenv("KFORGE_WORKER_NO_SIGNAL_SCOPE");
    const std::string target = std::to_string(bystander);
    ProcessResult r = compilers.run({"/bin/sh", "-c", "kill -TERM " + target + " && echo sent; kill -0 " + target +
                                                          " && echo probed; kill -TERM 0 2>/dev/null; echo after"},
                                    std::chrono::seconds(20));
    int status = 0;
    EXPECT_EQ(::waitpid(bystander, &status, WNOHANG), 0) << "the bystander was killed: " << r.output;
    ::kill(bystander, SIGKILL);
    ::waitpid(bystander, &status, 0);
    EXPECT_EQ(r.output.find("sent"), std::string::npos) << r.output;
    // Its own group: the shell's SIGTERM to group 0 ends it before "after".
    EXPECT_EQ(r.output.find("after"), std::string::npos) << r.output;
  }
}

// Nor may it read the reference process's memory or environment through /proc: that process is
// not dumpable, which binds every process of its user but one with CAP_SYS_PTRACE, which root's
// compilers had until session 34. As another user the kernel denies it anyway: nothing to test.
TEST(CompileSandbox, ACompilerAsRootCannotReadANonDumpableProcess) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock, or g++ outside the system folders";
  if (::geteuid() != 0) GTEST_SKIP() << "not root: the kernel denies it for want of the capability anyway";
  const pid_t reference = ::fork();  // stands for the reference process
  if (reference == 0) {
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    ::pause();
    ::_exit(0);
  }
  ASSERT_GT(reference, 0);
  ::usleep(100000);  // its prctl done
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "build");
  const Compilers compilers(confined_service(dir).settings(), dir.path() / "build");
  const std::string environ_file = "/proc/" + std::to_string(reference) + "/environ";
  ProcessResult r = compilers.run({"/bin/sh", "-c", "cat " + environ_file + " >/dev/null && echo read"},
                                  std::chrono::seconds(20));
  ::kill(reference, SIGKILL);
  ::waitpid(reference, nullptr, 0);
  EXPECT_EQ(r.output.find("read"), std::string::npos) << r.output;
}

// A native candidate's source alone reads files at build time: `.incbin` puts a file's bytes in
// its library, and the candidate then reports them as its error (its message reaches the store and
// an agent's model). Its compilers read what compiling needs only (native_build_readable): a file of
// the user's is not found, while an honest candidate builds.
TEST(CompileSandbox, ANativeCandidatesAssemblerReadsNoFileOfTheUsers) {
  if (landlock_missing()) GTEST_SKIP() << "no Landlock, or g++ outside the system folders";
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "home");
  const std::string secret = (dir.path() / "home" / "secret.txt").string();
  std::ofstream(secret) << "sk-kforge-native-secret\n";
  BuildSettings s;
  s.cache_dir = dir.path() / "cache";
  s.timeout = std::chrono::seconds(60);
  s.compile_readable = native_build_readable();
  BuildService service(s);
  const std::string candidate = "#include <kforge/candidate.h>\n"
                                "asm(\".section .rodata\\n.global leaked\\nleaked:\\n.incbin \\\"" + secret +
                                "\\\"\\n.byte 0\\n.previous\\n\");\n"
                                "extern \"C\" const char leaked[];\n"
                                "KFORGE_CANDIDATE(1) { return leaked[0] == 's'; }\n";
  BuildOutcome out = service.build({Format::cpp, candidate, "leak.cpp"});
  EXPECT_FALSE(out.ok) << "the user's file was read into the library";
  EXPECT_NE(out.log.find("file not found"), std::string::npos) << out.log;
  EXPECT_EQ(out.log.find("sk-kforge-native-secret"), std::string::npos) << out.log;
  BuildOutcome honest = service.build({Format::cpp, "#include <kforge/candidate.h>\nKFORGE_CANDIDATE(1) { return 0; }\n", "ok.cpp"});
  EXPECT_TRUE(honest.ok) << honest.diagnostics << honest.log;
}

// Nor does a credential in kforge's environment reach a compiler (a program a candidate's flags
// name would print it into the build's log).
TEST(CompileSandbox, NoCredentialReachesACompiler) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "build");
  ::setenv("KFORGE_TEST_API_KEY", "sk-kforge-compiler-env", 1);
  BuildSettings settings;
  settings.cache_dir = dir.path() / "cache";
  const Compilers compilers(settings, dir.path() / "build");
  ::unsetenv("KFORGE_TEST_API_KEY");
  ProcessResult r = compilers.run({"/usr/bin/env"}, std::chrono::seconds(20));
  EXPECT_NE(r.output.find("PATH="), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("sk-kforge-compiler-env"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace kforge::build
