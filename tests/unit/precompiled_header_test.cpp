// Which load_inline candidates share one precompiled torch header (build/precompiled_header.hpp):
// those whose host flags differ only where GCC accepts a header made with other flags.
#include "build/precompiled_header.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "build/build_service.hpp"
#include "support/temp_dir.hpp"

namespace kforge::build {
namespace {

using Flags = std::vector<std::string>;

// torch's own host flags for an extension, as python/kforge_inline.py computes them.
Flags torch_flags(const std::string& module, const Flags& extra) {
  Flags f{"-DTORCH_EXTENSION_NAME=" + module, "-DTORCH_API_INCLUDE_EXTENSION_H", "-isystem", "/torch/include",
          "-isystem", "/torch/include/torch/csrc/api/include", "-fPIC", "-std=c++17"};
  f.insert(f.end(), extra.begin(), extra.end());
  return f;
}

TEST(PrecompiledHeaderFlags, OptimisationLevelsOneToThreeShareOneHeader) {
  const Flags o3 = precompiled_header_flags(torch_flags("a", {"-O3"}));
  EXPECT_EQ(precompiled_header_flags(torch_flags("b", {"-O2"})), o3);
  EXPECT_EQ(precompiled_header_flags(torch_flags("c", {"-O1"})), o3);
  EXPECT_EQ(precompiled_header_flags(torch_flags("d", {"-O3", "-O3"})), o3);
  EXPECT_EQ(precompiled_header_flags(torch_flags("e", {"-O0", "-O2"})), o3) << "the last level holds";
  EXPECT_EQ(o3.back(), "-O3") << "the header is made at the level it serves";
}

TEST(PrecompiledHeaderFlags, WarningsAndLoopUnrollingDoNotSplitTheHeader) {
  const Flags o3 = precompiled_header_flags(torch_flags("a", {"-O3"}));
  EXPECT_EQ(precompiled_header_flags(torch_flags("b", {"-O3", "-Wall", "-Wno-unused-variable", "-w"})), o3);
  EXPECT_EQ(precompiled_header_flags(torch_flags("c", {"-O2", "-funroll-loops"})), o3);
}

TEST(PrecompiledHeaderFlags, FlagsThatChangeMacrosOrTheTargetKeepHeadersOfTheirOwn) {
  const Flags o3 = precompiled_header_flags(torch_flags("a", {"-O3"}));
  for (const Flags& extra : {Flags{"-O3", "-fopenmp"}, Flags{"-O3", "-ffast-math"}, Flags{"-O3", "-march=native"},
                             Flags{"-O3", "-DNDEBUG"}, Flags{"-O3", "-g"}, Flags{"-O3", "-Wp,-DFOO"}, Flags{"-Os"},
                             Flags{"-Ofast"}, Flags{}})
    EXPECT_NE(precompiled_header_flags(torch_flags("b", extra)), o3) << ::testing::PrintToString(extra);
  // No level and -O0 are the same compile.
  EXPECT_EQ(precompiled_header_flags(torch_flags("c", {})), precompiled_header_flags(torch_flags("d", {"-O0"})));
}

// torch adds the CUDA toolkit's include folder to a CUDA extension's flags, after its own; the
// header reaches nothing there, so a CPU extension's header serves the CUDA one's host part. Another
// folder (one without cuda_runtime_api.h) keeps a header of its own.
TEST(PrecompiledHeaderFlags, TheCudaToolkitsIncludeFolderDoesNotSplitTheHeader) {
  testing::TempDir dir;
  dir.write("cuda/include/cuda_runtime_api.h", "");
  dir.write("other/include/mine.h", "");
  const std::string cuda = dir.file("cuda/include"), other = dir.file("other/include");
  const Flags cpu = precompiled_header_flags(torch_flags("a", {"-O3"}));
  EXPECT_EQ(precompiled_header_flags(torch_flags("b", {"-isystem", cuda, "-O3"})), cpu);
  EXPECT_EQ(precompiled_header_flags(torch_flags("c", {"-I" + cuda, "-O3"})), cpu);
  EXPECT_EQ(precompiled_header_flags(torch_flags("d", {"-I", cuda, "-O3"})), cpu);
  EXPECT_NE(precompiled_header_flags(torch_flags("e", {"-isystem", other, "-O3"})), cpu);
}

TEST(PrecompiledHeaderFlags, TheModuleNameIsDroppedAndArgumentsStayWithTheirOptions) {
  // "-include -Os" names a file (an odd one), not a level: the level is -O2's.
  const Flags f = precompiled_header_flags(torch_flags("mod", {"-O2", "-include", "-Os", "-isystem", "/x"}));
  for (const auto& flag : f) EXPECT_EQ(flag.find("TORCH_EXTENSION_NAME"), std::string::npos);
  // Two -isystem options with different folders stay two, each with its folder.
  const Flags expected{"-DTORCH_API_INCLUDE_EXTENSION_H",
                       "-isystem",
                       "/torch/include",
                       "-isystem",
                       "/torch/include/torch/csrc/api/include",
                       "-fPIC",
                       "-std=c++17",
                       "-include",
                       "-Os",
                       "-isystem",
                       "/x",
                       "-O3"};
  EXPECT_EQ(f, expected);
}

// A header another build is making now is not waited for: the unit compiles without it (waiting
// held a build slot idle for the header's half-minute; issue 19). Real g++ on a one-line
// torch/extension.h, so the header builds in milliseconds; the other build is this test, holding
// the header's lock.
TEST(PrecompiledHeader, ABuildDoesNotWaitForAHeaderBeingBuilt) {
  testing::TempDir dir;
  dir.write("include/torch/extension.h", "#pragma once\nint torch_stand_in();\n");
  BuildSettings settings;
  settings.cache_dir = dir.path() / "cache";
  BuildService service(settings);
  const Flags flags = torch_flags("m", {"-I" + dir.file("include")});
  std::string note;
  auto built = torch_pch_dir(service, flags, "2.11.0", false, note);
  ASSERT_FALSE(built.empty()) << note;
  EXPECT_NE(note.find("built in"), std::string::npos) << note;
  const std::string key = built.filename().string();

  std::filesystem::remove_all(built);  // as before it was first built, with its lock held elsewhere
  int lock = ::open((settings.cache_dir / "pch" / (key + ".lock")).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_EX), 0);
  note.clear();
  EXPECT_TRUE(torch_pch_dir(service, flags, "2.11.0", false, note).empty());
  EXPECT_NE(note.find(key + " being built by another build; this unit compiles without it"), std::string::npos) << note;
  ::close(lock);  // the other build is done: the next unit builds it
  note.clear();
  EXPECT_EQ(torch_pch_dir(service, flags, "2.11.0", false, note), built) << note;
}

}  // namespace
}  // namespace kforge::build
