#include "worker/private_network.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

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

}  // namespace

void enter_private_network(NetworkOwner owner) {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  const bool new_user = owner == NetworkOwner::new_user || (owner == NetworkOwner::automatic && uid != 0);
  if (!new_user) {
    if (::unshare(CLONE_NEWNET) != 0) fail("unshare(CLONE_NEWNET)");
  } else {
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) fail("unshare(CLONE_NEWUSER | CLONE_NEWNET)");
    // The caller's ids mapped to themselves, so files keep their owners and access means what it
    // did; setgroups is denied first, as an unprivileged gid_map requires.
    write_proc_file("/proc/self/setgroups", "deny");
    write_proc_file("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n");
    write_proc_file("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n");
  }
  bring_loopback_up();
}

uint64_t network_namespace_id() {
  struct stat s{};
  return ::stat("/proc/self/ns/net", &s) == 0 ? static_cast<uint64_t>(s.st_ino) : 0;
}

}  // namespace kforge::worker
