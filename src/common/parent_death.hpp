#pragma once
// A forked child that must not outlive what started it: a worker, a compiler, a problem tool or
// the agent's server left running after kforge ends (Ctrl-C, kill -9) keeps a GPU or cores busy,
// and on the H200 an orphaned baseline tool had every candidate judged beside it rejected.
#include <sys/prctl.h>
#include <unistd.h>

namespace kforge {

// In the child right after fork() (only async-signal-safe calls): the kernel sends `signal` when
// the thread that forked it ends, and a parent that was gone already (it died between the fork
// and this request, so the signal will never come) ends the child at once with `status`.
// `parent` is the parent's getpid(), taken before the fork.
inline void die_with_parent(pid_t parent, int signal, int status) {
  ::prctl(PR_SET_PDEATHSIG, signal);
  if (::getppid() != parent) ::_exit(status);
}

}  // namespace kforge
