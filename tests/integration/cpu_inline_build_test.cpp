// KernelBench load_inline candidates built through kforge's cache (python/kforge_inline.py,
// src/build/inline_build.cpp) with the real g++ and nvcc, no GPU: a C++ extension evaluated on the
// CPU (from load_inline's texts, and from files through cpp_extension.load), and a CUDA extension
// built ahead by `kforge build`, split into kernels and host part.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "common/files.hpp"
#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

// The cache entries of load_inline builds under `cache` (XDG_CACHE_HOME), each with its build log
// as "build_log".
std::vector<nlohmann::json> inline_entries(const std::filesystem::path& cache) {
  std::vector<nlohmann::json> metas;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(cache / "kforge" / "build" / "objects", ec)) {
    auto meta = nlohmann::json::parse(read_file(e.path() / "meta.json"));
    if (meta["format"] != "load_inline") continue;
    meta["build_log"] = std::filesystem::exists(e.path() / "build.log") ? read_file(e.path() / "build.log") : "";
    metas.push_back(meta);
  }
  return metas;
}

// A fresh build cache under `dir` (XDG_CACHE_HOME), whose precompiled torch header folder is
// shared by every test of this file and kept between runs: each test starts with no cached
// build, without paying the header's minute again. (The header's build is locked and published
// atomically, as for concurrent kforge processes.)
void use_fresh_cache(const TempDir& dir) {
  auto shared = std::filesystem::temp_directory_path() / ("kforge-test-pch-" + std::to_string(::getuid()));
  auto build = std::filesystem::path(dir.file("cache")) / "kforge" / "build";
  std::filesystem::create_directories(shared);
  std::filesystem::create_directories(build);
  std::filesystem::create_directory_symlink(shared, build / "pch");
  ::setenv("XDG_CACHE_HOME", dir.file("cache").c_str(), 1);
}

// Evaluates `candidate` (of tests/candidates/) on the tiny problem on the CPU with a fresh build
// cache under `dir`; returns its one result line (an empty object, the failure recorded, where
// kforge failed or gave another count of lines).
nlohmann::json eval_in_fresh_cache(const TempDir& dir, const std::string& candidate) {
  use_fresh_cache(dir);
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.2", "--problem",
                       source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"), source_path("tests/candidates/" + candidate)});
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  EXPECT_EQ(lines.size(), 1u) << r.out;
  return r.exit_code == 0 && lines.size() == 1 ? lines[0] : nlohmann::json::object();
}

// Evaluates `candidate` (of tests/candidates/) on the CPU with a fresh build cache: it must be
// correct, built once and well through kforge's cache. Returns that cache entry.
nlohmann::json expect_correct_through_cache(const std::string& candidate) {
  TempDir dir;
  nlohmann::json line = eval_in_fresh_cache(dir, candidate);
  if (!line.empty()) {
    EXPECT_EQ(line["verdict"], "correct") << line["message"];
  }
  auto entries = inline_entries(dir.file("cache"));
  EXPECT_EQ(entries.size(), 1u) << "the build went through kforge's cache, not torch's";
  if (entries.size() != 1) return nlohmann::json::object();
  EXPECT_TRUE(entries[0]["ok"].get<bool>());
  return entries[0];
}

TEST(CpuInlineBuild, CppExtensionEvaluatesThroughKforgesCache) {
  nlohmann::json entry = expect_correct_through_cache("inline_cpp_correct.py");
  EXPECT_EQ(entry["extra"]["strategy"], "host");
}

// torch.utils.cpp_extension.load on sources the candidate wrote to disk, into a build_directory
// its sandbox lets it write nothing to: built from the files through kforge's cache.
// A candidate that overwrites every library and precompiled header of kforge's build cache
// (tests/adversarial/leak_overwrite_build_cache.py), between two evaluations of a load_inline
// candidate whose build the cache serves: the second is served the library the first was, and is
// correct. (While candidates' processes could write the cache, it loaded the overwritten file.)
TEST(CpuInlineBuild, ACandidateCannotBreakAnotherOnesCachedBuild) {
  TempDir dir;
  use_fresh_cache(dir);
  const std::string victim = read_file(source_path("tests/candidates/inline_cpp_correct.py"));
  auto r = run_kforge({"--db", dir.file("k.db"), "eval", "--device", "cpu", "--json", "--max-time", "0.2", "--problem",
                       source_path("tests/problems/level1/1_Tiny_Add_ReLU.py"), dir.write("first.py", victim),
                       source_path("tests/adversarial/leak_overwrite_build_cache.py"),
                       dir.write("second.py", victim + "\n# evaluated again, after the cache was attacked\n")});
  ::unsetenv("XDG_CACHE_HOME");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  for (const char* file : {"first.py", "leak_overwrite_build_cache.py", "second.py"})
    EXPECT_EQ(got[file].value("verdict", ""), "correct") << file << ": " << got[file].dump();
  auto entries = inline_entries(dir.file("cache"));
  ASSERT_EQ(entries.size(), 1u) << "the second evaluation was served the first one's build";
  for (const auto& e : std::filesystem::directory_iterator(dir.file("cache") + "/kforge/build/objects")) {
    if (std::filesystem::exists(e.path() / "candidate.so")) {
      EXPECT_EQ(read_file(e.path() / "candidate.so").substr(0, 4), "\x7f" "ELF") << e.path();
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("cache") + "/kforge/build/objects/planted"));
}

TEST(CpuInlineBuild, LoadFromDiskBuildsThroughKforgesCache) {
  expect_correct_through_cache("cpp_extension_load_from_disk.py");
}

// The precompiled torch header a build used, as its log names it ("precompiled torch header KEY").
std::string precompiled_header_key(const nlohmann::json& entry) {
  const std::string log = entry.value("build_log", "");
  const std::string tag = "precompiled torch header ";
  auto at = log.find(tag);
  if (at == std::string::npos) return "";
  at += tag.size();
  return log.substr(at, log.find_first_not_of("0123456789abcdef", at) - at);
}

// Models copy -O3 (twice, at times) and -Wall where the worked example has none or -O2: with the
// real g++, such a candidate's host unit uses the header another candidate's -O2 made, and g++
// takes it (it says "not used because ..." under -Winvalid-pch otherwise).
TEST(CpuInlineBuild, OptimisationLevelsShareOnePrecompiledHeader) {
  nlohmann::json o2 = expect_correct_through_cache("inline_cpp_correct.py");
  nlohmann::json o3 = expect_correct_through_cache("inline_cpp_o3_wall.py");
  const std::string key = precompiled_header_key(o2);
  ASSERT_FALSE(key.empty()) << o2.value("build_log", "");
  EXPECT_EQ(precompiled_header_key(o3), key) << o3.value("build_log", "");
  const std::string log = o3.value("build_log", "");
  EXPECT_EQ(log.find("built in"), std::string::npos) << "the -O3 build made a header of its own:\n" << log;
  EXPECT_EQ(log.find("not used because"), std::string::npos) << log;
  EXPECT_EQ(log.find("differing settings"), std::string::npos) << log;
}

// Sixteen threads of an extension fault at once: the process's crash report (its native stack, then
// Python's faulthandler) is written once, by the first thread, and the others wait for the process
// to die by its signal. Before, the threads went on faulting and reporting in turn (6 native stacks
// and 82 faulthandler dumps in one run) for 7.5-10 s before the process died on the development
// machine, 3.5-6.3 s for OpenMP extensions on the H200.
TEST(CpuInlineBuild, ThreadsFaultingTogetherAreReportedOnce) {
  TempDir dir;
  nlohmann::json line = eval_in_fresh_cache(dir, "inline_cpp_threads_segfault.py");
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line["verdict"], "crashed") << line["message"];
  // The worker's log holds the candidate process's output (the first and last 32 KiB of it).
  std::string log;
  for (const auto& e : std::filesystem::directory_iterator(dir.file("cache") + "/kforge/logs"))
    log += read_file(e.path());
  auto count = [&log](const std::string& what) {
    size_t n = 0;
    for (size_t at = log.find(what); at != std::string::npos; at = log.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("fatal signal, native stack"), 1u) << log.substr(0, 4000);
  EXPECT_EQ(count("Fatal Python error"), 1u) << log.substr(0, 4000);
}

bool have_nvcc() { return std::filesystem::exists("/usr/local/cuda/bin/nvcc") || std::getenv("CUDA_HOME"); }

// `kforge build --arch sm_90a` of `candidate` (of tests/candidates/) in a folder of its own under
// `dir`, `times` times over the same fresh cache; expects the first to build it split. Returns
// every run's one JSON line.
std::vector<nlohmann::json> build_ahead_split(const TempDir& dir, const std::string& candidate, int times = 1) {
  use_fresh_cache(dir);
  dir.write("run/level1/1_Tiny_Add_ReLU/" + candidate, read_file(source_path("tests/candidates/" + candidate)));
  std::vector<nlohmann::json> lines;
  for (int i = 0; i < times; ++i) {
    auto r = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("run")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto out = r.json_lines();
    EXPECT_EQ(out.size(), 1u) << r.out;
    lines.push_back(out.empty() ? nlohmann::json::object() : out[0]);
  }
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(lines[0].value("status", ""), "built") << lines[0].dump();
  EXPECT_NE(lines[0].value("detail", "").find(": split"), std::string::npos) << lines[0].dump();
  return lines;
}

// The one library a split build left in `dir`'s cache (empty where there is none).
std::filesystem::path built_library(const TempDir& dir) {
  std::filesystem::path library;
  for (const auto& e : std::filesystem::directory_iterator(dir.file("cache") + "/kforge/build/objects"))
    if (std::filesystem::exists(e.path() / "candidate.so")) library = e.path() / "candidate.so";
  return library;
}

// Every one of `symbols` the library defines itself: a kernel or address function the host part
// names and the device part did not export would be left undefined here, and fail only at import
// on a GPU machine.
void expect_resolved_within(const std::filesystem::path& library, std::initializer_list<const char*> symbols) {
  ASSERT_FALSE(library.empty()) << "no built library in the cache";
  auto undefined = run_command({"/usr/bin/nm", "-D", "--undefined-only", "-C", library.string()});
  ASSERT_EQ(undefined.exit_code, 0) << undefined.err;
  for (const char* symbol : symbols)
    EXPECT_EQ(undefined.out.find(symbol), std::string::npos) << symbol << " is left undefined:\n" << undefined.out;
}

TEST(CpuInlineBuild, CudaExtensionIsSplitAndCached) {
  if (!have_nvcc()) GTEST_SKIP() << "no CUDA toolkit";
  TempDir dir;
  auto lines = build_ahead_split(dir, "cuda_correct.py", 2);
  EXPECT_EQ(lines[1].value("status", ""), "cached") << lines[1].dump();
  auto entries = inline_entries(dir.file("cache"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_FALSE(entries[0]["kernels"].empty()) << "ptxas resources of the kernel are kept";
}

// What models write most: a template kernel launched from AT_DISPATCH_FLOATING_TYPES, in an
// anonymous namespace, beside a static template kernel. It takes the split path, and the library
// resolves every kernel the host part launches within itself (an instance nvcc kept internal would
// be left undefined here, and fail only at import on a GPU machine). Its host part (-O3, and the
// CUDA toolkit's include folder) takes the precompiled header a CPU extension (-O2) made, and g++
// does not refuse it: on the H200's tests/realworld the two kinds made a header each, about 40 s.
TEST(CpuInlineBuild, DispatchedTemplateKernelsSplitAndLinkOnTheCpuExtensionsHeader) {
  if (!have_nvcc()) GTEST_SKIP() << "no CUDA toolkit";
  nlohmann::json cpu = expect_correct_through_cache("inline_cpp_correct.py");
  const std::string key = precompiled_header_key(cpu);
  ASSERT_FALSE(key.empty()) << cpu.value("build_log", "");
  TempDir dir;
  build_ahead_split(dir, "cuda_dispatch_template.py");
  expect_resolved_within(built_library(dir), {"add_relu_kernel", "zero_tail_kernel", "kforge_split_address"});
  auto entries = inline_entries(dir.file("cache"));
  ASSERT_EQ(entries.size(), 1u);
  const std::string log = entries[0].value("build_log", "");
  EXPECT_EQ(precompiled_header_key(entries[0]), key) << log;
  EXPECT_EQ(log.find("built in"), std::string::npos) << "the CUDA build made a header of its own:\n" << log;
  EXPECT_EQ(log.find("not used because"), std::string::npos) << log;
}

// Kernels that take packed accessors, as PyTorch's extension tutorial writes them: split, with
// ATen's accessor header in the kernels' part and torch's nvcc-only RestrictPtrTraits defined for
// g++ in the host part. Both kernels link: the template one through its address function, the
// plain one by its host stub's mangled name, whose accessor type must be spelt alike on both sides
// (a mismatch would be an undefined symbol here, and fail only at import on a GPU machine).
TEST(CpuInlineBuild, PackedAccessorKernelsSplitAndLink) {
  if (!have_nvcc()) GTEST_SKIP() << "no CUDA toolkit";
  TempDir dir;
  build_ahead_split(dir, "cuda_packed_accessor.py");
  const std::filesystem::path library = built_library(dir);
  expect_resolved_within(library, {"add_rows_kernel", "clamp_rows_kernel", "kforge_split_address"});
  // The plain kernel's host stub, defined in the library (nvcc's object), under the name the
  // host part's declaration asks for (g++'s spelling of the accessor type).
  auto defined = run_command({"/usr/bin/nm", "-C", "--defined-only", library.string()});
  std::string stubs;
  std::istringstream lines(defined.out);
  for (std::string line; std::getline(lines, line);)
    if (line.find("clamp_rows_kernel(") != std::string::npos) stubs += line + "\n";
  EXPECT_NE(stubs.find("RestrictPtrTraits"), std::string::npos) << "the plain kernel's stub:\n" << stubs;
}

// Constant memory filled from the host (cudaMemcpyToSymbol): split, the host part reaching the
// constant's shadow through the device part's address function, which links.
TEST(CpuInlineBuild, ConstantMemoryFilledFromTheHostSplitsAndLinks) {
  if (!have_nvcc()) GTEST_SKIP() << "no CUDA toolkit";
  TempDir dir;
  build_ahead_split(dir, "cuda_constant_weights.py");
  expect_resolved_within(built_library(dir), {"c_coeffs", "kforge_split_symbol", "add_relu_const_kernel"});
}

// Launches inside a function-like macro, one per case of a switch over block sizes: split, each
// launch written out in the host part, each instance defined by the device part, all linked.
TEST(CpuInlineBuild, LaunchesInsideAMacroSplitAndLink) {
  if (!have_nvcc()) GTEST_SKIP() << "no CUDA toolkit";
  TempDir dir;
  build_ahead_split(dir, "cuda_launch_macro_switch.py");
  expect_resolved_within(built_library(dir), {"add_relu_block_kernel", "kforge_split_address"});
}

// A split whose host part takes an instance its kernels' part does not define (the splitter read
// a local alias of one name in two scopes as the first's) links all the same, a shared library
// may leave names undefined, and would fail at import on a GPU machine: the build finds the name
// missing in the objects and builds the source whole.
TEST(CpuInlineBuild, ASplitLeavingAnInstanceUndefinedIsBuiltWhole) {
  if (!have_nvcc()) GTEST_SKIP() << "no CUDA toolkit";
  TempDir dir;
  use_fresh_cache(dir);
  dir.write("run/level1/1_Tiny_Add_ReLU/alias.py", read_file(source_path("tests/candidates/cuda_alias_in_two_scopes.py")));
  auto r = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("run")});
  ::unsetenv("XDG_CACHE_HOME");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0]["status"], "built") << lines[0].dump();
  EXPECT_NE(lines[0].value("detail", "").find("whole"), std::string::npos) << lines[0].dump();
  auto entries = inline_entries(dir.file("cache"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_NE(entries[0]["extra"]["why_whole"].get<std::string>().find("which its kernels' part does not define"),
            std::string::npos)
      << entries[0].dump();
  expect_resolved_within(built_library(dir), {"add_relu_typed_kernel", "kforge_split_address"});
}

// A C++ extension that writes a header defining its scale into a fresh folder at import time, and
// includes it from there.
std::string fresh_header_candidate(const std::string& scale) {
  return "import os, tempfile\nimport torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load_inline\n"
         "HEADERS = tempfile.mkdtemp()\n"
         "with open(os.path.join(HEADERS, 'scale.h'), 'w') as f:\n    f.write('#define KFORGE_TEST_SCALE " + scale + "\\n')\n"
         "mod = load_inline(name='include_keyed', cpp_sources='#include <torch/extension.h>\\n#include \"scale.h\"\\n"
         "torch::Tensor f(torch::Tensor x) { return x * KFORGE_TEST_SCALE; }', functions=['f'], extra_include_paths=[HEADERS])\n"
         "class ModelNew(nn.Module):\n    def forward(self, a, b):\n        return mod.f(torch.relu(a + b))\n";
}

// A build is keyed by what the candidate's own include folders hold, not by their paths: a folder
// made fresh by each import (`tempfile.mkdtemp()`, in the process's own scratch folder) meets the
// cache the second time (it rebuilt every time, with a 750 MB precompiled header of its own), and
// another header in such a folder is built on its own. (A header beside the candidate's file is
// not readable: the sandbox lets a candidate read its own file only, not its folder's others.)
TEST(CpuInlineBuild, IncludeFoldersAreKeyedByWhatTheyHold) {
  TempDir dir;
  use_fresh_cache(dir);
  auto build = [&](const std::string& scale) {
    dir.write("run/level1/1_Tiny_Add_ReLU/fresh.py", fresh_header_candidate(scale));
    auto r = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("run")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto lines = r.json_lines();
    return lines.size() == 1 ? lines[0].value("status", "") + " " + lines[0].value("detail", "") : r.out;
  };
  const std::string first = build("2.0f"), again = build("2.0f"), other = build("3.0f");
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(first.rfind("built ", 0), 0u) << first;
  EXPECT_EQ(again.rfind("cached ", 0), 0u) << "the same header in another fresh folder: " << again;
  EXPECT_EQ(other.rfind("built ", 0), 0u) << "another header: " << other;
  EXPECT_EQ(inline_entries(dir.file("cache")).size(), 2u);
}

// A load_inline build that fails is compile_error, with the error at the candidate's own .py
// line (and the line within its source string), not at a line of torch's generated main.cpp.
TEST(CpuInlineBuild, CppCompileErrorPointsIntoThePyFile) {
  TempDir dir;
  nlohmann::json line = eval_in_fresh_cache(dir, "inline_cpp_compile_error.py");
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line["verdict"], "compile_error") << line["message"];
  std::string message = line["message"];
  EXPECT_NE(message.find("inline_cpp_compile_error.py:18 [cpp_sources line 11]: error:"), std::string::npos) << message;
  EXPECT_NE(message.find("value"), std::string::npos) << message;
  EXPECT_EQ(message.find("main.cpp"), std::string::npos) << message;
}

// A CUDA source that does not compile: the split build fails, the whole build (as torch builds
// it) fails too, and `kforge build` reports compile_error at the .py line, without a GPU.
TEST(CpuInlineBuild, CudaCompileErrorFallsBackWholeAndPointsIntoThePyFile) {
  if (!have_nvcc()) GTEST_SKIP() << "no CUDA toolkit";
  TempDir dir;
  use_fresh_cache(dir);
  dir.write("run/level1/1_Tiny_Add_ReLU/broken.py",
            read_file(source_path("tests/candidates/inline_cuda_compile_error.py")));
  auto r = run_kforge({"build", "--arch", "sm_90a", "--json", dir.file("run")});
  ::unsetenv("XDG_CACHE_HOME");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0]["status"], "compile_error") << lines[0].dump();
  std::string detail = lines[0]["detail"];
  EXPECT_NE(detail.find("broken.py:22 [cuda_sources line 10]: error:"), std::string::npos) << detail;
  auto entries = inline_entries(dir.file("cache"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_FALSE(entries[0]["ok"].get<bool>());
  EXPECT_NE(entries[0]["extra"]["why_whole"].get<std::string>().find("the split build failed"), std::string::npos)
      << entries[0].dump();
}

}  // namespace
}  // namespace kforge::testing
