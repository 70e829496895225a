#include "worker/sandbox.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

// Older kernel headers (Debian 12's are 6.1) predate these; the values are the kernel's ABI.
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

namespace kforge::worker {
namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
#error "kforge's worker sandbox knows x86_64 and aarch64"
#endif

std::string deny_network() {
  constexpr unsigned kDeny = SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA);
  sock_filter program[] = {
      // Another architecture's calling convention (a 32-bit int 0x80 call) could dodge the numbers below.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, kDeny),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
#if defined(__x86_64__)
      // x32 system calls (bit 30 set) are a second table of the same calls.
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, kDeny),
#endif
      // io_uring can open sockets without the socket() system call.
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, kDeny),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 3, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_PACKET, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),  // AF_UNIX and the like: local only
      BPF_STMT(BPF_RET | BPF_K, kDeny),
  };
  sock_fprog prog{static_cast<unsigned short>(sizeof program / sizeof program[0]), program};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("no_new_privs: ") + std::strerror(errno);
  if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0)
    return std::string("seccomp: ") + std::strerror(errno);
  return "";
}

std::string confine_writes(const std::vector<std::string>& writable, int& abi) {
  abi = static_cast<int>(::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION));
  if (abi < 1) return "Landlock is not available in this kernel";
  uint64_t handled = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                     LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                     LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                     LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) handled |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = handled;
  int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
  if (ruleset < 0) return std::string("Landlock ruleset: ") + std::strerror(errno);
  std::vector<std::string> dirs = writable;
  dirs.push_back("/dev");   // the GPU's device files are opened for writing; /dev/null, /dev/shm
  dirs.push_back("/proc");  // thread names, the process's own settings
  for (const auto& dir : dirs) {
    int fd = ::open(dir.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) continue;
    landlock_path_beneath_attr rule{};
    rule.allowed_access = handled;
    rule.parent_fd = fd;
    long added = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    int err = errno;
    ::close(fd);
    if (added != 0) {
      ::close(ruleset);
      return "Landlock rule for " + dir + ": " + std::strerror(err);
    }
  }
  long restricted = ::syscall(SYS_landlock_restrict_self, ruleset, 0);
  int err = errno;
  ::close(ruleset);
  if (restricted != 0) return std::string("Landlock restrict: ") + std::strerror(err);
  return "";
}

}  // namespace

SandboxStatus enter_sandbox(const std::vector<std::string>& writable) {
  SandboxStatus s;
  std::string net = deny_network();
  s.network_denied = net.empty();
  int abi = 0;
  std::string fs = confine_writes(writable, abi);
  s.writes_confined = fs.empty();
  s.describe = std::string("network ") + (s.network_denied ? "denied" : "NOT denied (" + net + ")") + "; file writes " +
               (s.writes_confined ? "confined to the scratch and cache folders (Landlock ABI " + std::to_string(abi) + ")"
                                  : "NOT confined (" + fs + ")");
  return s;
}

}  // namespace kforge::worker
