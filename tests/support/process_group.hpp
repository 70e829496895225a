#pragma once
// For tests that start a tree of real processes in a group of their own (the resource bounds'
// unit tests): the whole group killed and its leader reaped.
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

namespace kforge::testing {

inline void end_process_group(pid_t leader) {
  ::kill(-leader, SIGKILL);
  ::waitpid(leader, nullptr, 0);
}

}  // namespace kforge::testing
