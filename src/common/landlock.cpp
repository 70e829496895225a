#include "common/landlock.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

// Older kernel headers (Debian 12's are 6.1) predate these; the values are the kernel's ABI.
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

namespace kforge::landlock {

int abi() { return static_cast<int>(::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION)); }

uint64_t write_rights(int abi) {
  uint64_t write = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                   LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                   LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                   LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) write |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) write |= LANDLOCK_ACCESS_FS_TRUNCATE;
  return write;
}

uint64_t read_rights() { return LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR; }

std::string add_path_rule(int ruleset, const std::string& path, uint64_t access, uint64_t handled) {
  int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return "";
  struct stat st {};
  if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
    access &= LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
              LANDLOCK_ACCESS_FS_TRUNCATE;
  landlock_path_beneath_attr rule{};
  rule.allowed_access = access & handled;
  rule.parent_fd = fd;
  long added = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  int err = errno;
  ::close(fd);
  return added == 0 ? "" : "Landlock rule for " + path + ": " + std::strerror(err);
}

OwnedFd confining_ruleset(const Confinement& confinement, std::string* error, bool* signals_scoped) {
  error->clear();
  if (signals_scoped) *signals_scoped = false;
  const int version = abi();
  if (version < 1) return OwnedFd();
  const uint64_t write = write_rights(version), read = confinement.readable ? read_rights() : 0;
  const uint64_t handled = write | read;
  RulesetAttr attr;
  attr.handled_access_fs = handled;
  size_t attr_size = sizeof(uint64_t);
  if (confinement.scope_signals && version >= 6) {
    attr.scoped = LANDLOCK_SCOPE_SIGNAL | LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
    attr_size = sizeof attr;
  }
  OwnedFd ruleset(static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0)));
  if (!ruleset.valid()) {
    *error = std::string("Landlock ruleset: ") + std::strerror(errno);
    return OwnedFd();
  }
  std::vector<std::pair<std::string, uint64_t>> rules;
  for (const auto& path : confinement.devices) rules.emplace_back(path, write | read);
  for (const auto& path : confinement.writable) rules.emplace_back(path, write | read);
  if (!confinement.writable_proc.empty()) rules.emplace_back(confinement.writable_proc, write | read);
  if (confinement.readable) {
    rules.emplace_back("/proc", read);  // the CUDA driver's /proc/driver/nvidia, the C library's
    rules.emplace_back("/sys", read);   // the GPU's PCI and NUMA topology
    for (const auto& path : *confinement.readable) rules.emplace_back(path, read);
  }
  for (const auto& [path, access] : rules)
    if (std::string why = add_path_rule(ruleset.get(), path, access, handled); !why.empty()) {
      *error = why;
      return OwnedFd();
    }
  if (signals_scoped) *signals_scoped = attr.scoped != 0;
  return ruleset;
}

bool restrict_self(int ruleset) {
  return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && ::syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
}

}  // namespace kforge::landlock
