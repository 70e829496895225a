// The scratch folder's disk bound (pool/disk_usage.hpp) on a real folder: what a folder holds as
// the disk counts it, a bound that trips past its figure and not below it, whoever else fills the
// filesystem, and a nesting too deep to count; then the resource watch killing a process whose
// folder grew past its bound.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "pool/disk_usage.hpp"
#include "pool/resource_watch.hpp"
#include "support/temp_dir.hpp"

namespace kforge {
namespace {

using testing::TempDir;

constexpr int64_t kMiB = int64_t{1} << 20;

// `bytes` of non-zero data (zeros could be stored sparsely by some filesystems).
void write_bytes(const TempDir& dir, const std::string& name, int64_t bytes) {
  dir.write(name, std::string(static_cast<size_t>(bytes), 'x'));
}

TEST(DiskUsage, CountsFilesAndFoldersAsTheDiskHoldsThem) {
  TempDir dir;
  write_bytes(dir, "a/one", 3 * kMiB);
  write_bytes(dir, "a/b/two", kMiB);
  for (int i = 0; i < 100; ++i) dir.write("empty/" + std::to_string(i), "");
  std::optional<DiskUsage> usage = folder_disk_usage(dir.path().string());
  ASSERT_TRUE(usage);
  EXPECT_EQ(usage->entries, 2 + 2 + 1 + 100);  // a, a/b, the two files, empty/ and its 100 files
  EXPECT_GE(usage->bytes, 4 * kMiB + 100 * DiskUsage::kBytesPerEntry);
  EXPECT_LT(usage->bytes, 5 * kMiB);
  EXPECT_FALSE(usage->too_deep);
  EXPECT_FALSE(folder_disk_usage((dir.path() / "missing").string()));
}

TEST(DiskUsage, ALinkIsNotFollowed) {
  TempDir outside;
  write_bytes(outside, "big", 4 * kMiB);
  TempDir dir;
  std::filesystem::create_directory_symlink(outside.path(), dir.path() / "link");
  std::optional<DiskUsage> usage = folder_disk_usage(dir.path().string());
  ASSERT_TRUE(usage);
  EXPECT_EQ(usage->entries, 1);
  EXPECT_LT(usage->bytes, kMiB);
}

// The bound's verdict once it has had the time to walk (kLongestBetweenWalks): other tests freeing
// space at the same moment may hide a write from the free-space figure until then.
std::optional<DiskUsage> past_soon(FolderBound& bound) {
  std::optional<DiskUsage> past = bound.past();
  for (int i = 0; i < 100 && !past; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    past = bound.past();
  }
  return past;
}

TEST(FolderBound, TripsPastItsFigureOnly) {
  TempDir dir;
  FolderBound bound(dir.path().string(), 2 * kMiB);
  write_bytes(dir, "first", kMiB);
  EXPECT_FALSE(bound.past());
  write_bytes(dir, "second", kMiB / 2);
  EXPECT_FALSE(bound.past());
  write_bytes(dir, "third", kMiB);  // 2.5 MiB in three files, none of them past the bound alone
  std::optional<DiskUsage> past = past_soon(bound);
  ASSERT_TRUE(past);
  EXPECT_GT(past->bytes, 2 * kMiB);
  EXPECT_FALSE(past->too_deep);
}

// What others write on the same filesystem only makes the bound look at the folder again.
TEST(FolderBound, OthersWritesDoNotTripIt) {
  TempDir dir;
  TempDir other;
  FolderBound bound((dir.path() / "mine").string(), 2 * kMiB);
  write_bytes(dir, "mine/file", kMiB);
  EXPECT_FALSE(bound.past());
  write_bytes(other, "theirs", 8 * kMiB);
  EXPECT_FALSE(bound.past());
}

TEST(FolderBound, ANestingTooDeepToCountTripsIt) {
  TempDir dir;
  std::filesystem::path deep = dir.path();
  for (int i = 0; i <= DiskUsage::kDeepestFolder; ++i) deep /= "d";
  std::filesystem::create_directories(deep);
  FolderBound bound(dir.path().string(), int64_t{1} << 40);
  std::optional<DiskUsage> past = past_soon(bound);
  ASSERT_TRUE(past);
  EXPECT_TRUE(past->too_deep);
}

// The watch kills the process whose folder passed its bound, and says what the folder held.
TEST(ResourceWatch, AFolderPastItsBoundEndsItsProcess) {
  TempDir dir;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::pause();
    ::_exit(0);
  }
  ::setpgid(pid, pid);
  ResourceBounds bounds;
  bounds.folder = dir.path().string();
  bounds.folder_bytes = 2 * kMiB;
  ResourceWatch watch(pid, bounds);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(watch.tripped(), ResourceWatch::Tripped::none);
  write_bytes(dir, "one", 3 * kMiB);
  for (int i = 0; i < 200 && watch.tripped() == ResourceWatch::Tripped::none; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const bool tripped = watch.tripped() == ResourceWatch::Tripped::folder;
  int status = 0;
  const bool ended = tripped && ::waitpid(pid, &status, 0) == pid;  // the watch's SIGKILL
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  EXPECT_TRUE(tripped);
  EXPECT_GT(watch.seen_folder_bytes(), 2 * kMiB);
  EXPECT_TRUE(ended && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

// Space others free in the same moment hides what the folder took from the filesystem's free
// space: the walk every kLongestBetweenWalks finds it anyway.
TEST(FolderBound, SpaceFreedByOthersDoesNotHideTheFolder) {
  TempDir dir;
  TempDir other;
  write_bytes(other, "theirs", 16 * kMiB);
  FolderBound bound((dir.path() / "mine").string(), 2 * kMiB);
  write_bytes(dir, "mine/file", kMiB);
  EXPECT_FALSE(bound.past());
  write_bytes(dir, "mine/more", 2 * kMiB);
  std::filesystem::remove(other.path() / "theirs");  // the filesystem's free space rises meanwhile
  std::optional<DiskUsage> past = past_soon(bound);
  ASSERT_TRUE(past);
  EXPECT_GT(past->bytes, 2 * kMiB);
}

}  // namespace
}  // namespace kforge
