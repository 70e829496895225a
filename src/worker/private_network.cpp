#include "worker/private_network.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "common/errors.hpp"
#include "common/owned_fd.hpp"

namespace kforge::worker {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw Error("private network: " + what + " failed: " + std::strerror(errno));
}

void write_proc_file(const char* path, const std::string& text) {
  OwnedFd fd(::open(path, O_WRONLY | O_CLOEXEC));
  if (!fd.valid()) fail(std::string("opening ") + path);
  if (::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size()))
    fail(std::string("writing ") + path);
}

// A new network namespace starts with `lo` down: 127.0.0.1 is unreachable until it is up.
void bring_loopback_up() {
  OwnedFd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) fail("a socket to configure lo");
  ifreq request{};
  std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
  if (::ioctl(fd.get(), SIOCGIFFLAGS, &request) != 0) fail("reading lo's flags");
  request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP);
  if (::ioctl(fd.get(), SIOCSIFFLAGS, &request) != 0) fail("bringing lo up");
}

// Makes the calling process dumpable for its lifetime, and restores what it was after.
class DumpableWhile {
 public:
  DumpableWhile() : was_(::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0)) { ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0); }
  ~DumpableWhile() {
    if (was_ >= 0) ::prctl(PR_SET_DUMPABLE, was_, 0, 0, 0);
  }
  DumpableWhile(const DumpableWhile&) = delete;  // restores once
  DumpableWhile& operator=(const DumpableWhile&) = delete;

 private:
  int was_;
};

// Whether `owner` means a new user namespace for the calling process.
bool makes_user_namespace(NetworkOwner owner) {
  return owner == NetworkOwner::new_user || (owner == NetworkOwner::automatic && ::geteuid() != 0);
}

}  // namespace

void enter_private_network(NetworkOwner owner) {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  if (!makes_user_namespace(owner)) {
    if (::unshare(CLONE_NEWNET) != 0) fail("unshare(CLONE_NEWNET)");
  } else {
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) fail("unshare(CLONE_NEWUSER | CLONE_NEWNET)");
    // kforge is not dumpable (cli/main.cpp), and a process that is not has its /proc files owned by
    // root: an ordinary user's could not open its own maps. Dumpable for these three writes only,
    // in the holder, before any candidate of the job exists.
    DumpableWhile dumpable;
    // The caller's ids mapped to themselves, so files keep their owners and access means what it
    // did; setgroups is denied first, as an unprivileged gid_map requires.
    write_proc_file("/proc/self/setgroups", "deny");
    write_proc_file("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n");
    write_proc_file("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n");
  }
  bring_loopback_up();
}

PrivateNetworkHolder::PrivateNetworkHolder(NetworkOwner owner) {
  int ready[2], hold[2];
  if (::pipe2(ready, O_CLOEXEC) != 0) fail("a pipe for the network holder");
  if (::pipe2(hold, O_CLOEXEC) != 0) {
    ::close(ready[0]);
    ::close(ready[1]);
    fail("a pipe for the network holder");
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int saved = errno;
    for (int fd : {ready[0], ready[1], hold[0], hold[1]}) ::close(fd);
    errno = saved;
    fail("forking the network holder");
  }
  if (pid == 0) {
    // The child: enter the namespace, say so (or why not), then wait for the handle to go (its
    // end of `hold` closes, whichever way the parent ends).
    ::close(ready[0]);
    ::close(hold[1]);
    // It lives as long as the job, so every other descriptor it inherited (a zygote's control
    // socket, a candidate's socket, kforge's pipes) would stay open as long: their peers would wait
    // for an end-of-file that never comes (a zygote would outlive its reference process).
    const unsigned low = static_cast<unsigned>(std::min(ready[1], hold[0]));
    const unsigned high = static_cast<unsigned>(std::max(ready[1], hold[0]));
    if (low > 3) ::syscall(SYS_close_range, 3u, low - 1, 0u);
    if (high > low + 1) ::syscall(SYS_close_range, low + 1, high - 1, 0u);
    ::syscall(SYS_close_range, high + 1, ~0u, 0u);
    // The parent opens /proc/<pid>/ns/ once the namespaces are made, which an ordinary user's
    // process may do only to a dumpable process (kforge is not): dumpable from here until the
    // parent says it has them (one byte), before any candidate of the job exists.
    ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    std::string answer = "ok";
    try {
      enter_private_network(owner);
    } catch (const Error& e) {
      answer = e.what();
    }
    (void)!::write(ready[1], answer.data(), answer.size());
    ::close(ready[1]);
    char byte;
    if (::read(hold[0], &byte, 1) > 0) {
      ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
      while (::read(hold[0], &byte, 1) > 0) {
      }
    }
    ::_exit(0);
  }
  pid_ = pid;
  ::close(ready[1]);
  ::close(hold[0]);
  hold_fd_ = hold[1];
  std::string answer;
  char buffer[512];
  for (ssize_t n; (n = ::read(ready[0], buffer, sizeof buffer)) > 0;) answer.append(buffer, static_cast<size_t>(n));
  ::close(ready[0]);
  auto end_child = [&] {
    ::close(hold_fd_);
    hold_fd_ = -1;
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  };
  if (answer != "ok") {
    end_child();
    throw Error(answer.empty() ? "private network: the holder process died" : answer);
  }
  const std::string proc = "/proc/" + std::to_string(pid) + "/ns/";
  net_fd_ = ::open((proc + "net").c_str(), O_RDONLY | O_CLOEXEC);
  const bool own_user = makes_user_namespace(owner);
  if (own_user) user_fd_ = ::open((proc + "user").c_str(), O_RDONLY | O_CLOEXEC);
  if (net_fd_ < 0 || (own_user && user_fd_ < 0)) {
    const int saved = errno;
    if (net_fd_ >= 0) ::close(net_fd_);
    if (user_fd_ >= 0) ::close(user_fd_);
    net_fd_ = user_fd_ = -1;
    end_child();
    errno = saved;
    fail("opening the holder's namespaces");
  }
  const char opened = 'o';
  (void)!::write(hold_fd_, &opened, 1);
}

PrivateNetworkHolder::~PrivateNetworkHolder() {
  if (net_fd_ >= 0) ::close(net_fd_);
  if (user_fd_ >= 0) ::close(user_fd_);
  if (hold_fd_ >= 0) ::close(hold_fd_);  // the holder's read returns 0: it exits
  // Unless a process forked meanwhile kept a copy of that pipe's end open: killed either way.
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

void join_private_network(int user_namespace_fd, int network_namespace_fd) {
  if (user_namespace_fd >= 0 && ::setns(user_namespace_fd, CLONE_NEWUSER) != 0) fail("setns(CLONE_NEWUSER)");
  if (::setns(network_namespace_fd, CLONE_NEWNET) != 0) fail("setns(CLONE_NEWNET)");
}

uint64_t network_namespace_id() {
  struct stat s{};
  return ::stat("/proc/self/ns/net", &s) == 0 ? static_cast<uint64_t>(s.st_ino) : 0;
}

}  // namespace kforge::worker
