// The reference worker's sandbox (worker/sandbox.hpp) against the kernel's Landlock, in a forked
// child that has no more privileges than an ordinary user's process: kforge may run as root, but
// CI and most users do not, and Landlock refuses a process that has neither CAP_SYS_ADMIN nor
// no_new_privs.
#include "worker/sandbox.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "common/landlock.hpp"
#include "support/temp_dir.hpp"

namespace kforge::worker {
namespace {

using testing::TempDir;

// Bits a child reports through its exit status.
constexpr int kConfined = 1, kWroteInside = 2, kWroteOutside = 4, kCouldNotDrop = 8;

// Runs enter_sandbox(writable = {inside}, references_network) in a child without root's
// privileges (as `nobody` where this runs as root) and tries a write inside and one outside.
int sandboxed_writes(const std::string& inside, const std::string& outside, bool references_network) {
  pid_t child = ::fork();
  if (child == 0) {
    if (::geteuid() == 0 && (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
                             ::setresuid(65534, 65534, 65534) != 0))
      ::_exit(kCouldNotDrop);
    int bits = enter_sandbox({inside}, references_network).writes_confined ? kConfined : 0;
    for (auto [path, bit] : {std::pair{inside + "/written", kWroteInside}, std::pair{outside + "/written", kWroteOutside}}) {
      int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd >= 0) {
        bits |= bit;
        ::close(fd);
      }
    }
    ::_exit(bits);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class WorkerSandbox : public ::testing::TestWithParam<bool> {};

// Both kinds of worker: one whose network is denied (its seccomp filter sets no_new_privs on the
// way) and a multi-rank job's, which keeps its sockets for the references' group and so installs
// no filter: Landlock alone must still be able to confine it.
TEST_P(WorkerSandbox, ConfinesWritesWithoutPrivileges) {
  if (landlock::abi() < 1) GTEST_SKIP() << "no Landlock in this kernel";
  TempDir inside, outside;
  for (const auto* dir : {&inside, &outside})
    std::filesystem::permissions(dir->path(), std::filesystem::perms::all);  // open to `nobody`
  const int bits = sandboxed_writes(inside.path().string(), outside.path().string(), GetParam());
  ASSERT_NE(bits & kCouldNotDrop, kCouldNotDrop) << "could not become nobody";
  EXPECT_EQ(bits, kConfined | kWroteInside);
  EXPECT_FALSE(std::filesystem::exists(outside.path() / "written"));
}

INSTANTIATE_TEST_SUITE_P(NetworkDeniedOrKept, WorkerSandbox, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ReferencesNetworkKept" : "NetworkDenied"; });

}  // namespace
}  // namespace kforge::worker
