// die_with_parent: a forked child ends with the thread that forked it, and at once where that
// parent was gone before it asked.
#include "common/parent_death.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kforge {
namespace {

// The window between fork() and the request: a parent already gone is seen (here the child is
// told another process is its parent, as it would be after its own had died and it was adopted).
TEST(ParentDeath, AChildWhoseParentIsGoneExitsAtOnce) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    die_with_parent(::getppid() + 1, SIGKILL, 42);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 42);
}

// A grandchild whose parent (the child) exits is killed: the end of a pipe it holds closes.
TEST(ParentDeath, AChildDiesWithItsParent) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const pid_t self = ::getpid();
    const pid_t grandchild = ::fork();
    if (grandchild == 0) {
      ::close(fds[0]);
      die_with_parent(self, SIGKILL, 3);
      for (;;) ::pause();  // holds fds[1] until it is killed
    }
    ::_exit(grandchild > 0 ? 0 : 1);
  }
  ::close(fds[1]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // The grandchild's end of the pipe closes when it dies: read() then sees the end of the file.
  pollfd p{fds[0], POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 5000), 1) << "the grandchild outlived its parent by 5 s";
  char byte = 0;
  EXPECT_EQ(::read(fds[0], &byte, 1), 0);
  ::close(fds[0]);
}

}  // namespace
}  // namespace kforge
