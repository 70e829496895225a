// The candidates' network of a multi-rank job (worker/private_network.hpp), with real sockets:
// ranks forked inside reach each other over its loopback; nothing listening on the machine's own
// loopback (where the reference processes' group listens) and no outside address is reachable.
// And the candidate sandbox (worker/sandbox.hpp) allows such a rank its sockets, and only there.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "common/owned_fd.hpp"
#include "worker/private_network.hpp"
#include "worker/sandbox.hpp"

namespace kforge::worker {
namespace {

// Exit codes of the forked side, each a step that went wrong; kSkip where the machine allows no
// such namespace.
constexpr int kSkip = 77;

// A TCP listener on 127.0.0.1 at a port the kernel picks (-1 where it cannot be made); its port in `port`.
int listen_on_loopback(uint16_t* port) {
  OwnedFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (!fd.valid() || ::bind(fd.get(), reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(fd.get(), 4) != 0 ||
      ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0)
    return -1;
  *port = ntohs(address.sin_port);
  return fd.release();
}

// Whether a TCP connection to address:port is made; errno says why not.
bool connects(const char* address, uint16_t port) {
  OwnedFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  ::inet_pton(AF_INET, address, &to.sin_addr);
  return fd.valid() && ::connect(fd.get(), reinterpret_cast<sockaddr*>(&to), sizeof to) == 0;
}

// Runs `body` in a forked child (single-threaded there, as the namespace asks); its exit code.
int in_child(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    int code = 100;
    try {
      code = body();
    } catch (const Error& e) {
      code = std::strstr(e.what(), std::strerror(EPERM)) ? kSkip : 101;
    } catch (...) {
    }
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 200;
}

int private_network_holds(NetworkOwner owner, uint16_t machine_port) {
  enter_private_network(owner);
  if (connects("127.0.0.1", machine_port)) return 1;  // the machine's loopback listener, reached
  if (errno != ECONNREFUSED) return 2;                // lo must be up, with nothing on that port
  if (connects("10.255.255.1", 9)) return 3;          // an outside address: no route at all
  if (errno != ENETUNREACH) return 4;
  uint16_t rank_port = 0;
  OwnedFd rank_listener(listen_on_loopback(&rank_port));
  if (!rank_listener.valid()) return 5;
  // Another rank, forked after the namespace was made, reaches this one's listener.
  const pid_t other = ::fork();
  if (other == 0) ::_exit(connects("127.0.0.1", rank_port) ? 0 : 1);
  int status = 0;
  ::waitpid(other, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 6;
}

void expect_private_network(NetworkOwner owner, const char* name) {
  uint16_t machine_port = 0;
  OwnedFd machine_listener(listen_on_loopback(&machine_port));
  ASSERT_TRUE(machine_listener.valid()) << std::strerror(errno);
  ASSERT_TRUE(connects("127.0.0.1", machine_port)) << "the listener outside must be reachable from outside";
  const int code = in_child([&] { return private_network_holds(owner, machine_port); });
  if (code == kSkip) GTEST_SKIP() << name << ": this machine allows no such namespace (EPERM)";
  EXPECT_EQ(code, 0) << name << ": step " << code
                     << " (1-2 the machine's loopback, 3-4 an outside address, 5-6 the ranks' own loopback)";
}

TEST(PrivateNetwork, RanksReachEachOtherAndNothingElseInANewUserNamespace) {
  expect_private_network(NetworkOwner::new_user, "new user namespace");
}

TEST(PrivateNetwork, RanksReachEachOtherAndNothingElseInTheCallersUserNamespace) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root (CAP_SYS_ADMIN in the caller's user namespace)";
  expect_private_network(NetworkOwner::current_user, "caller's user namespace");
}

// Two ranks forked by different processes (as each rank's candidate comes from its own worker's
// zygote) join one held network right after their fork: each reaches the other over its loopback,
// neither reaches the machine's.
TEST(PrivateNetwork, RanksForkedApartJoinOneHeldNetwork) {
  uint16_t machine_port = 0;
  OwnedFd machine_listener(listen_on_loopback(&machine_port));
  ASSERT_TRUE(machine_listener.valid()) << std::strerror(errno);
  std::unique_ptr<PrivateNetworkHolder> holder;
  try {
    holder = std::make_unique<PrivateNetworkHolder>(NetworkOwner::new_user);
  } catch (const Error& e) {
    if (std::strstr(e.what(), std::strerror(EPERM))) GTEST_SKIP() << e.what();
    FAIL() << e.what();
  }
  const uint64_t outside = network_namespace_id();
  int port_pipe[2], hold_pipe[2];
  ASSERT_EQ(::pipe(port_pipe), 0);
  ASSERT_EQ(::pipe(hold_pipe), 0);
  // Rank 0: joins, listens, tells its port, and stays until the test is done with it.
  const pid_t rank0 = ::fork();
  if (rank0 == 0) {
    ::close(port_pipe[0]);
    ::close(hold_pipe[1]);
    uint16_t port = 0;
    try {
      join_private_network(holder->user_namespace_fd(), holder->network_namespace_fd());
    } catch (...) {
      ::_exit(1);
    }
    OwnedFd listener(listen_on_loopback(&port));
    if (network_namespace_id() == outside || !listener.valid()) port = 0;
    (void)!::write(port_pipe[1], &port, sizeof port);
    char byte;
    (void)!::read(hold_pipe[0], &byte, 1);
    ::_exit(0);
  }
  ::close(port_pipe[1]);
  ::close(hold_pipe[0]);
  uint16_t rank0_port = 0;
  ASSERT_EQ(::read(port_pipe[0], &rank0_port, sizeof rank0_port), static_cast<ssize_t>(sizeof rank0_port));
  EXPECT_NE(rank0_port, 0) << "rank 0 did not join, or could not listen";
  // Rank 1, forked by this process: joins the same network.
  const int rank1 = in_child([&] {
    join_private_network(holder->user_namespace_fd(), holder->network_namespace_fd());
    if (network_namespace_id() == outside) return 31;
    if (!connects("127.0.0.1", rank0_port)) return 32;
    if (connects("127.0.0.1", machine_port) || errno != ECONNREFUSED) return 33;
    return 0;
  });
  EXPECT_EQ(rank1, 0) << "step " << rank1 << " (31 not moved, 32 rank 0 unreached, 33 the machine's loopback reached)";
  ::close(hold_pipe[1]);
  int status = 0;
  ::waitpid(rank0, &status, 0);
  ::close(port_pipe[0]);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

// kforge as an ordinary user runs it: not dumpable (cli/main.cpp), without root's privileges (as
// `nobody` where the test runs as root). A process that is not dumpable has its /proc files owned
// by root, which had kept such a process from writing its own namespace's maps and from opening
// the holder's namespaces: every multi-rank job of a user other than root was a runtime_error.
TEST(PrivateNetwork, ANonDumpableOrdinaryUsersProcessHoldsANetwork) {
  const int code = in_child([] {
    if (::geteuid() == 0 && (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
                             ::setresuid(65534, 65534, 65534) != 0))
      return 11;
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    PrivateNetworkHolder holder(NetworkOwner::automatic);
    const uint64_t outside = network_namespace_id();
    return in_child([&] {
      join_private_network(holder.user_namespace_fd(), holder.network_namespace_fd());
      return network_namespace_id() != outside ? 0 : 12;
    });
  });
  if (code == kSkip) GTEST_SKIP() << "this machine allows no new user namespace (EPERM)";
  EXPECT_EQ(code, 0) << "11 could not become nobody, 12 the rank stayed outside, 101 the holder failed";
}

// A rank moved into its private network, then sandboxed as a candidate: its sockets work, on its
// own loopback only. One asked for but never moved keeps them denied, and says why.
TEST(PrivateNetwork, TheCandidateSandboxAllowsSocketsOnlyInAPrivateNetwork) {
  uint16_t machine_port = 0;
  OwnedFd machine_listener(listen_on_loopback(&machine_port));
  ASSERT_TRUE(machine_listener.valid()) << std::strerror(errno);
  const int moved = in_child([&] {
    const uint64_t reference_network = network_namespace_id();
    if (reference_network == 0) return 10;
    enter_private_network(NetworkOwner::new_user);
    SandboxStatus s = enter_candidate_sandbox({}, {}, {static_cast<int>(::getppid())}, reference_network);
    if (!s.network_private || s.network_denied) return 11;
    if (s.describe.find("sockets only in the ranks' private network namespace") == std::string::npos) return 12;
    uint16_t rank_port = 0;
    OwnedFd rank_listener(listen_on_loopback(&rank_port));
    if (!rank_listener.valid() || !connects("127.0.0.1", rank_port)) return 13;
    if (connects("127.0.0.1", machine_port) || errno != ECONNREFUSED) return 14;
    return 0;
  });
  if (moved == kSkip) GTEST_SKIP() << "this machine allows no new user namespace (EPERM)";
  EXPECT_EQ(moved, 0) << "step " << moved << " (11-12 the status, 13 its own loopback, 14 the machine's)";

  const int stayed = in_child([&] {
    SandboxStatus s = enter_candidate_sandbox({}, {}, {static_cast<int>(::getppid())}, network_namespace_id());
    if (s.network_private || !s.network_denied) return 21;
    if (s.describe.rfind("NOT in a private network namespace: network and tracing calls denied", 0) != 0) return 22;
    OwnedFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (fd.valid() || errno != EACCES) return 23;
    return 0;
  });
  EXPECT_EQ(stayed, 0) << "step " << stayed << " (21-22 the status, 23 a socket made)";
}

}  // namespace
}  // namespace kforge::worker
