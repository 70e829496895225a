#pragma once
// For tests that start a tree of real processes in a group of their own (the resource bounds'
// unit tests): the whole group killed and its leader reaped, and a watch waited on.
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "pool/resource_watch.hpp"

namespace kforge::testing {

inline void end_process_group(pid_t leader) {
  ::kill(-leader, SIGKILL);
  ::waitpid(leader, nullptr, 0);
}

// After a watch that should have killed the tree `leader` leads: whether it did (the leader
// reaped, ended by SIGKILL). Where it did not trip, the group is ended here.
inline bool ended_by_sigkill(pid_t leader, bool tripped) {
  int status = 0;
  if (tripped && ::waitpid(leader, &status, 0) == leader) return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  end_process_group(leader);
  return false;
}

// Waits up to `most` for `watch` to trip; what it tripped on (none if it did not).
inline ResourceWatch::Tripped wait_for_trip(const ResourceWatch& watch, std::chrono::milliseconds most) {
  const auto end = std::chrono::steady_clock::now() + most;
  while (watch.tripped() == ResourceWatch::Tripped::none && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return watch.tripped();
}

}  // namespace kforge::testing
