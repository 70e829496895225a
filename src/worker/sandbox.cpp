#include "worker/sandbox.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

#include "common/capabilities.hpp"
#include "common/colon_list.hpp"
#include "common/landlock.hpp"
#include "common/seccomp_filter.hpp"
#include "worker/private_network.hpp"

namespace kforge::worker {
namespace {

using namespace seccomp;  // the filters' building blocks (common/seccomp_filter.hpp)

std::string deny_network() {
  Program p;
  check_architecture(p);
  deny_network_sockets(p);
  return install(p);
}

// What a kernel (a CUDA one, a Triton one) never needs and a candidate would use to reach the
// judge (seccomp::process_escape_calls), and signals and sockets as the candidate's process may have them.
std::string deny_candidate_calls(const std::vector<int>& protected_pids, bool signals_scoped, bool private_network) {
  Program p;
  check_architecture(p);
  deny_calls(p, process_escape_calls(), kDenyPerm);
  if (signals_scoped) deny_signals_to(p, protected_pids);
  else allow_signals_only_within(p, static_cast<int>(::getpid()));
  deny_network_sockets(p, private_network);
  return install(p);
}

// No capabilities, now or after an exec (common/capabilities.hpp).
std::string drop_capabilities() {
  return drop_all_capabilities() ? "" : std::string("capset: ") + std::strerror(errno);
}

// Confines writes to `writable` (and /dev, and /proc: all of it for the reference process, only
// its own /proc/<pid> for a candidate). With `readable` (candidates), reads are confined too, to
// those paths (folders or single files), the writable ones, and /dev, /proc and /sys. For a
// candidate, where the kernel has it, signals and abstract Unix sockets are scoped to its own
// Landlock domain (`scoped` says whether).
std::string confine_files(const std::vector<std::string>& writable, const std::vector<std::string>* readable,
                          int& abi, bool candidate, bool* scoped) {
  abi = landlock::abi();
  if (abi < 1) return "Landlock is not available in this kernel";
  landlock::Confinement confinement;
  confinement.writable = writable;
  if (readable) confinement.readable = *readable;
  // Thread names and the process's own settings. Resolved now, so a candidate's rule names its
  // own /proc/<pid> and not /proc/sys or another process's files.
  confinement.writable_proc = candidate ? "/proc/" + std::to_string(::getpid()) : "/proc";
  // KFORGE_WORKER_NO_SIGNAL_SCOPE: the tests' way to exercise the seccomp rule older kernels rely on.
  confinement.scope_signals = candidate && !std::getenv("KFORGE_WORKER_NO_SIGNAL_SCOPE");
  std::string error;
  bool signals_scoped = false;
  OwnedFd ruleset = landlock::confining_ruleset(confinement, &error, &signals_scoped);
  if (!ruleset.valid()) return error;
  if (!landlock::restrict_self(ruleset.get())) return std::string("Landlock restrict: ") + std::strerror(errno);
  if (scoped) *scoped = signals_scoped;
  return "";
}

}  // namespace

std::vector<std::string> candidate_writable_folders() {
  std::vector<std::string> out;
  if (const char* scratch = std::getenv("KFORGE_WORKER_SCRATCH"); scratch && *scratch) out.emplace_back(scratch);
  if (const char* extra = std::getenv("KFORGE_WORKER_WRITABLE"))
    for (auto& folder : colon_list(extra)) out.push_back(std::move(folder));
  return out;
}

std::vector<std::string> build_cache_folders() {
  const char* caches = std::getenv("KFORGE_WORKER_BUILD_CACHE");
  return colon_list(caches ? caches : "");
}

std::vector<std::string> writable_folders() {
  std::vector<std::string> out = candidate_writable_folders();
  for (auto& folder : build_cache_folders()) out.push_back(std::move(folder));
  if (const char* caches = std::getenv("KFORGE_WORKER_GPU_CACHES"))
    for (auto& folder : colon_list(caches)) out.push_back(std::move(folder));
  return out;
}

std::vector<std::string> host_compiler_folders() {
  std::vector<std::string> programs;
  for (const char* var : {"CC", "CXX"})
    if (const char* v = std::getenv(var); v && *v) programs.emplace_back(v);
  for (const char* name : {"cc", "gcc", "c++", "g++", "clang"}) programs.emplace_back(name);
  const char* path = std::getenv("PATH");
  const std::vector<std::string> search = colon_list(path ? path : "");
  const char* home_env = std::getenv("HOME");
  const std::string home = home_env ? home_env : "";
  std::vector<std::string> out;
  auto grant = [&](const std::string& folder) {
    if (!folder.empty() && std::find(out.begin(), out.end(), folder) == out.end()) out.push_back(folder);
  };
  for (const auto& program : programs) {
    std::vector<std::string> tries;
    if (program.find('/') != std::string::npos) tries.push_back(program);
    else
      for (const auto& dir : search) tries.push_back(dir + "/" + program);
    for (const auto& candidate : tries) {
      char resolved[PATH_MAX];
      if (::access(candidate.c_str(), X_OK) != 0 || !::realpath(candidate.c_str(), resolved)) continue;
      // The compiler itself, not a link to it: a link in ~/bin would open the home folder.
      const std::string file(resolved);
      const std::string dir = file.substr(0, file.find_last_of('/'));
      if (dir.size() > 4 && dir.ends_with("/bin")) {
        const std::string prefix = dir.substr(0, dir.size() - 4);
        if (!home.empty() && (home == prefix || home.starts_with(prefix + "/"))) {
          for (const char* sub : {"/bin", "/lib", "/lib64", "/libexec", "/include"}) grant(prefix + sub);
        } else {
          grant(prefix);
        }
      } else {
        grant(dir);
      }
      break;
    }
  }
  return out;
}

SandboxStatus enter_sandbox(const std::vector<std::string>& writable, bool references_network) {
  SandboxStatus s;
  std::string net = references_network ? "kept for the references' group of a multi-rank job" : deny_network();
  s.network_denied = !references_network && net.empty();
  int abi = 0;
  std::string fs = confine_files(writable, nullptr, abi, false, nullptr);
  s.writes_confined = fs.empty();
  s.describe = std::string("network ") + (s.network_denied ? "denied" : "NOT denied (" + net + ")") + "; file writes " +
               (s.writes_confined ? "confined to the scratch and cache folders (Landlock ABI " + std::to_string(abi) + ")"
                                  : "NOT confined (" + fs + ")");
  return s;
}

SandboxStatus enter_candidate_sandbox(const std::vector<std::string>& writable, const std::vector<std::string>& readable,
                                      const std::vector<int>& protected_pids, uint64_t private_apart_from) {
  SandboxStatus s;
  // Sockets only where the process really left the namespace it was asked to leave: a rank that
  // stayed in the worker's would reach the reference processes' group on its loopback.
  const uint64_t here = private_apart_from != 0 ? network_namespace_id() : 0;  // no stat for every other candidate
  const bool private_network = here != 0 && here != private_apart_from;
  // Landlock without CAP_SYS_ADMIN needs no_new_privs first (the seccomp filter sets it too).
  ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  // No core file when it crashes: a process with a CUDA context maps gigabytes, and the kernel
  // writes the core before its channel closes, so each crash held the GPU idle for seconds
  // (tests/realworld's host-code candidates handed CUDA tensors on the H200: 2-10 s per crash).
  // RLIMIT_CORE binds only a core_pattern that names a file; a piped one (systemd-coredump,
  // apport) is fed whatever the limit, unless the process is not dumpable.
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  std::string caps = drop_capabilities();
  int abi = 0;
  std::string fs = confine_files(writable, &readable, abi, true, &s.signals_scoped);
  s.writes_confined = fs.empty();
  std::string calls = deny_candidate_calls(protected_pids, s.signals_scoped, private_network);
  s.network_denied = calls.empty() && !private_network;
  s.network_private = calls.empty() && private_network;
  const std::string denied = private_network ? "tracing calls" : "network and tracing calls";
  s.describe = (private_apart_from != 0 && !private_network ? std::string("NOT in a private network namespace: ") : std::string()) +
               denied + " " + (calls.empty() ? "denied" : "NOT denied (" + calls + ")") +
               (s.network_private ? "; sockets only in the ranks' private network namespace" : "") +
               "; file reads and writes " +
               (s.writes_confined ? "confined (Landlock ABI " + std::to_string(abi) + ")" : "NOT confined (" + fs + ")") +
               "; signals " + (s.signals_scoped ? "scoped to its own processes (Landlock)" : "only to its own process group (seccomp)") +
               "; capabilities " + (caps.empty() ? "dropped" : "NOT dropped (" + caps + ")");
  return s;
}

}  // namespace kforge::worker
