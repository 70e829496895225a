#pragma once
// Landlock, the kernel's file sandbox for unprivileged processes: the rulesets of the worker's
// sandboxes (worker/sandbox.hpp) and of the build service's compile sandbox (build/compilers.hpp).
// A ruleset names the rights it handles; a process restricted by it keeps only the rights its
// rules grant beneath their paths, and so does everything it starts later.
#include <cstdint>
#include <optional>
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

// What a ruleset confines. Writes are allowed beneath `writable` and `devices` only (the GPU's
// device files are opened for writing; /dev/null, /dev/shm), and in /proc where `writable_proc` says.
struct Confinement {
  std::vector<std::string> writable;
  // With a list, reads are confined too: to it (folders or single files), the writable paths,
  // `devices`, /proc and /sys. Without one, reads are not handled at all.
  std::optional<std::vector<std::string>> readable;
  // The device nodes (or folders of them) it may read and write: all of /dev, or for code of a
  // candidate's choosing common/system_reads.hpp's usable_device_paths().
  std::vector<std::string> devices = {"/dev"};
  // "" for no writes in /proc (a candidate's), "/proc" for all of it, or one folder of it.
  std::string writable_proc;
  // Scope signals and abstract Unix sockets to the restricted process's own Landlock domain, where
  // the kernel has it (ABI 6); older kernels leave that to a seccomp rule.
  bool scope_signals = false;
};

// A ruleset for `confinement`. Invalid where the kernel has no Landlock (`error` then empty) or
// refused a rule (`error` says why). `signals_scoped`, if given, says whether scoping was asked of
// the kernel.
OwnedFd confining_ruleset(const Confinement& confinement, std::string* error, bool* signals_scoped = nullptr);

// Restricts the calling thread (and what it executes) by `ruleset`. Only system calls: safe in a
// child between fork and exec. False where the kernel refused.
bool restrict_self(int ruleset);

}  // namespace kforge::landlock
