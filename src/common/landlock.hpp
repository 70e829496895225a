#pragma once
// Landlock, the kernel's file sandbox for unprivileged processes: the rulesets of the worker's
// sandboxes (worker/sandbox.hpp) and of the build service's compile sandbox (build/subprocess.hpp).
// A ruleset names the rights it handles; a process restricted by it keeps only the rights its
// rules grant beneath their paths, and so does everything it starts later.
#include <cstdint>
#include <string>
#include <vector>

#include "common/owned_fd.hpp"

namespace kforge::landlock {

// The kernel's Landlock ABI version; below 1 where it has none.
int abi();

// Every right that creates, writes, truncates, renames or removes a file, as far as `abi` knows them.
uint64_t write_rights(int abi);
// Reading files and listing folders.
uint64_t read_rights();

// landlock_ruleset_attr as of ABI 6; older kernel headers lack the last two fields, and the kernel
// takes the struct's size, so an older kernel is given only the part it knows.
struct RulesetAttr {
  uint64_t handled_access_fs = 0;
  uint64_t handled_access_net = 0;
  uint64_t scoped = 0;
};

// Adds a rule: `access` (within `handled`) beneath `path`, or on it if it is a file (then only
// the rights a file has). A missing path is skipped. Empty, or why the kernel refused it.
std::string add_path_rule(int ruleset, const std::string& path, uint64_t access, uint64_t handled);

// A ruleset that allows writing beneath `writable` and /dev only, and reading beneath those,
// `readable`, /proc and /sys only. Invalid where the kernel has no Landlock or refused a rule
// (`error` then says why, or is empty for no Landlock at all).
OwnedFd confining_ruleset(const std::vector<std::string>& writable, const std::vector<std::string>& readable,
                          std::string* error);

// Restricts the calling thread (and what it executes) by `ruleset`. Only system calls: safe in a
// child between fork and exec. False where the kernel refused.
bool restrict_self(int ruleset);

}  // namespace kforge::landlock
