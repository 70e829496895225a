// remove_tree (common/remove_tree.hpp) on real folders a candidate could shape: deeper than a path
// may be long (nftw left it behind and said nothing), wide, with links that must not be followed.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "common/remove_tree.hpp"
#include "support/temp_dir.hpp"

namespace kforge {
namespace {

using testing::TempDir;

TEST(RemoveTree, AFolderDeeperThanAPathMayBeLongIsRemoved) {
  TempDir dir;
  const std::string root = dir.file("scratch");
  ASSERT_EQ(::mkdir(root.c_str(), 0700), 0);
  int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  for (int i = 0; i < 3000; ++i) {  // 6,000 characters of path, past PATH_MAX (4,096)
    ASSERT_EQ(::mkdirat(fd, "d", 0700), 0);
    int child = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = child;
    ASSERT_GE(fd, 0);
  }
  int file = ::openat(fd, "bottom", O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(file, 0);
  ASSERT_EQ(::write(file, "x", 1), 1);
  ::close(file);
  ::close(fd);
  EXPECT_TRUE(remove_tree(root));
  EXPECT_FALSE(std::filesystem::exists(root));
}

TEST(RemoveTree, WideFoldersLinksAndFilesGoButNotWhatALinkLeadsTo) {
  TempDir outside;
  outside.write("keep/me", "precious");
  TempDir dir;
  for (int i = 0; i < 50; ++i) dir.write("scratch/wide/" + std::to_string(i) + "/file", "x");
  dir.write("scratch/a/b/c/file", "x");
  std::filesystem::create_directory_symlink(outside.path() / "keep", dir.path() / "scratch" / "folder-link");
  std::filesystem::create_symlink(outside.path() / "keep" / "me", dir.path() / "scratch" / "a" / "file-link");
  EXPECT_TRUE(remove_tree(dir.file("scratch")));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "scratch"));
  EXPECT_TRUE(std::filesystem::exists(outside.path() / "keep" / "me"));
}

TEST(RemoveTree, NothingThereIsNothingToDo) {
  TempDir dir;
  EXPECT_TRUE(remove_tree(dir.file("missing")));
}

}  // namespace
}  // namespace kforge
