#pragma once
// A network of its own for the candidate processes of one multi-rank job (issue 24;
// docs/notes/multi-rank-judge.md): a new network namespace that holds only its loopback, brought
// up. The ranks' gloo and NCCL bootstrap then reach each other over 127.0.0.1 and nothing else:
// not the reference processes' group on the machine's own loopback, not the network.
#include <cstdint>

namespace kforge::worker {

// Which user namespace owns the new network namespace.
enum class NetworkOwner {
  automatic,       // the caller's own where it may (root), else a new one (as `unshare -Urn` does)
  new_user,        // always a new user namespace, the caller's ids mapped to themselves
  current_user,    // the caller's user namespace (it needs CAP_SYS_ADMIN there, as root has)
};

// Moves the calling process into a new network namespace with `lo` up. Call it while the process
// is single-threaded (a new user namespace requires it), before the sandbox (its seccomp filter
// denies unshare), and fork the rank processes after it: they inherit the namespace. Throws
// kforge::Error naming the system call that failed and why (EPERM where the machine allows no
// unprivileged user namespaces).
void enter_private_network(NetworkOwner owner = NetworkOwner::automatic);

// A private network that outlives the process that made it, for ranks forked by other processes
// (each rank's candidate comes from its own worker's zygote): a child process that entered one
// (enter_private_network) and waits, and the namespaces it holds, open. Each rank joins it right
// after its fork, single-threaded (join_private_network). Killed when the handle goes.
class PrivateNetworkHolder {
 public:
  explicit PrivateNetworkHolder(NetworkOwner owner = NetworkOwner::automatic);  // throws kforge::Error
  ~PrivateNetworkHolder();
  PrivateNetworkHolder(const PrivateNetworkHolder&) = delete;
  PrivateNetworkHolder& operator=(const PrivateNetworkHolder&) = delete;

  int user_namespace_fd() const { return user_fd_; }  // -1 where it made none (root, current_user)
  int network_namespace_fd() const { return net_fd_; }

 private:
  int pid_ = -1;
  int hold_fd_ = -1;  // its end of the pipe the holder waits on
  int user_fd_ = -1;
  int net_fd_ = -1;
};

// Moves the calling process into the holder's namespaces (fds passed on, e.g. to a zygote's child:
// its user namespace first, where there is one, then its network). The caller must be
// single-threaded, as joining a user namespace requires. Throws kforge::Error naming the call.
void join_private_network(int user_namespace_fd, int network_namespace_fd);

// The calling process's network namespace, as the kernel names it (the inode of /proc/self/ns/net;
// 0 where that cannot be read): what a process records before entering a private network, so the
// sandbox can tell that it did (worker/sandbox.hpp).
uint64_t network_namespace_id();

}  // namespace kforge::worker
