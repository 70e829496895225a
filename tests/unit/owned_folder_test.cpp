// The folders kforge makes for itself (pool/worker_process.hpp, make_owned_folder): named by the
// kforge that made them, and those a dead kforge left behind removed by the next one.
#include "pool/worker_process.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/temp_dir.hpp"

namespace kforge {
namespace {

// A pid that was a process's a moment ago and is no one's now.
int dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

TEST(OwnedFolder, ADeadKforgesFoldersGoAndTheLivingStay) {
  testing::TempDir root;
  const auto dead = root.path() / ("kforge-agent-" + std::to_string(dead_pid()) + "-abc123");
  const auto living = root.path() / ("kforge-agent-" + std::to_string(::getppid()) + "-def456");
  const auto other_kind = root.path() / ("kforge-worker-" + std::to_string(dead_pid()) + "-ghi789");
  const auto unnamed = root.path() / "kforge-agent-XyZ123";  // an older kforge's name: not judged
  for (const auto& folder : {dead, living, other_kind, unnamed}) std::filesystem::create_directories(folder / "inside");

  const auto made = make_owned_folder(root.path(), "agent");
  EXPECT_TRUE(std::filesystem::is_directory(made));
  EXPECT_EQ(made.parent_path(), root.path());
  EXPECT_EQ(made.filename().string().rfind("kforge-agent-" + std::to_string(::getpid()) + "-", 0), 0u) << made;
  EXPECT_FALSE(std::filesystem::exists(dead)) << "a dead kforge's folder stayed";
  EXPECT_TRUE(std::filesystem::exists(living)) << "a living process's folder went";
  EXPECT_TRUE(std::filesystem::exists(other_kind)) << "another kind's folder went: its own kind sweeps it";
  EXPECT_TRUE(std::filesystem::exists(unnamed));
}

}  // namespace
}  // namespace kforge
