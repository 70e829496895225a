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

#include <linux/capability.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

#include "common/colon_list.hpp"
#include "common/landlock.hpp"
#include "worker/private_network.hpp"

namespace kforge::worker {
namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
#error "kforge's worker sandbox knows x86_64 and aarch64"
#endif

constexpr unsigned kDeny = SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA);
constexpr unsigned kDenyPerm = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);

using Program = std::vector<sock_filter>;

sock_filter stmt(uint16_t code, uint32_t k) { return BPF_STMT(code, k); }
sock_filter jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) { return BPF_JUMP(code, k, jt, jf); }

// The start of every filter: another architecture's calling convention (a 32-bit int 0x80 call)
// or x32's second table of the same calls (bit 30) could dodge the numbers checked after it.
void check_architecture(Program& p) {
  p.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0));
  p.push_back(stmt(BPF_RET | BPF_K, kDeny));
  p.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
#if defined(__x86_64__)
  p.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
  p.push_back(stmt(BPF_RET | BPF_K, kDeny));
#endif
}

// Expects the system call number loaded; denies each of `calls` with `action`.
void deny_calls(Program& p, const std::vector<long>& calls, unsigned action) {
  for (long nr : calls) {
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 1));
    p.push_back(stmt(BPF_RET | BPF_K, action));
  }
}

// Expects the number loaded; socket(AF_INET/AF_INET6/AF_PACKET) denied, other families allowed;
// with `allow_inet` (a rank in its private network namespace) only AF_PACKET. io_uring can open
// sockets without the socket() system call: denied either way. Ends the program.
void deny_network_sockets(Program& p, bool allow_inet = false) {
  deny_calls(p, {__NR_io_uring_setup}, kDeny);
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0));
  p.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  p.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
  if (!allow_inet) {
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 3, 0));
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 2, 0));
  }
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_PACKET, 1, 0));
  p.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));  // AF_UNIX and the like: local only
  p.push_back(stmt(BPF_RET | BPF_K, kDeny));
}

// Expects the number loaded; a signal sent with kill, tgkill, rt_sigqueueinfo or
// rt_tgsigqueueinfo (whose first argument is the process, or the group when negative) to a target
// `allowed` does not accept is denied. Falls through to the next block otherwise.
template <class Allowed>
void filter_signals(Program& p, Allowed allowed) {
  const long senders[] = {__NR_kill, __NR_tgkill, __NR_rt_sigqueueinfo, __NR_rt_tgsigqueueinfo};
  Program block;  // runs with the number loaded; returns, or jumps to its end with it reloaded
  allowed(block);
  block.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  const size_t n = std::size(senders);
  for (size_t i = 0; i < n; ++i)  // a sender jumps to the block; the last non-sender skips it
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(senders[i]), static_cast<uint8_t>(n - i), 0));
  p.push_back(jump(BPF_JMP | BPF_JA, static_cast<uint32_t>(block.size()), 0, 0));
  p.insert(p.end(), block.begin(), block.end());
}

// With Landlock's signal scope the kernel already keeps every signal inside the candidate's own
// processes; this only names kforge's processes again: `pids`, their groups, and every process (-1).
void deny_signals_to(Program& p, const std::vector<int>& pids) {
  filter_signals(p, [&](Program& b) {
    std::vector<uint32_t> targets{0xffffffffu};
    for (int pid : pids)
      if (pid > 1) {
        targets.push_back(static_cast<uint32_t>(pid));
        targets.push_back(static_cast<uint32_t>(-pid));
      }
    b.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
    for (uint32_t target : targets) {
      b.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, target, 0, 1));
      b.push_back(stmt(BPF_RET | BPF_K, kDenyPerm));
    }
  });
}

// Without it (kernels before 6.12): signals only to the process itself and its own group (which
// holds everything it started: none of it can leave), and the existence probe (signal 0) to any.
// Its children are signalled through the group; one child alone cannot be (a compiler's timeout
// in `kforge build-inline` then waits for the job's deadline).
void allow_signals_only_within(Program& p, int self) {
  filter_signals(p, [&](Program& b) {
    const uint32_t own = static_cast<uint32_t>(self), group = static_cast<uint32_t>(-self);
    // kill(pid, 0) and rt_sigqueueinfo(pid, 0, ...) only test that pid exists.
    b.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_kill, 0, 3));
    b.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[1])));
    b.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1));
    b.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    b.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
    for (uint32_t target : {0u, own, group}) {
      b.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, target, 0, 1));
      b.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    }
    b.push_back(stmt(BPF_RET | BPF_K, kDenyPerm));
  });
}

std::string install(Program& p) {
  sock_fprog prog{static_cast<unsigned short>(p.size()), p.data()};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("no_new_privs: ") + std::strerror(errno);
  if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0)
    return std::string("seccomp: ") + std::strerror(errno);
  return "";
}

std::string deny_network() {
  Program p;
  check_architecture(p);
  deny_network_sockets(p);
  return install(p);
}

// What a kernel (a CUDA one, a Triton one, a compiler run for load_inline) never needs and a
// candidate would use to reach the judge: other processes' memory and tracing, leaving its process
// group (a double fork with setsid outlives the group kill), mounts, BPF, kernel keyrings, pidfds
// (a signal or an fd taken from another process), namespaces, kernel modules.
std::string deny_candidate_calls(const std::vector<int>& protected_pids, bool signals_scoped, bool private_network) {
  Program p;
  check_architecture(p);
  deny_calls(p,
             {__NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_setsid, __NR_setpgid, __NR_mount,
              __NR_umount2, __NR_pivot_root, __NR_chroot, __NR_bpf, __NR_keyctl, __NR_add_key, __NR_request_key,
              __NR_pidfd_open, __NR_pidfd_getfd, __NR_pidfd_send_signal, __NR_tkill, __NR_unshare, __NR_setns,
              __NR_init_module, __NR_finit_module, __NR_delete_module, __NR_kexec_load, __NR_reboot, __NR_swapon,
              __NR_swapoff, __NR_process_madvise, __NR_kcmp, __NR_perf_event_open, __NR_userfaultfd},
             kDenyPerm);
  if (signals_scoped) deny_signals_to(p, protected_pids);
  else allow_signals_only_within(p, static_cast<int>(::getpid()));
  deny_network_sockets(p, private_network);
  return install(p);
}

// No capabilities, now or after an exec: as root, CAP_SYS_PTRACE would open another process's
// memory through /proc and CAP_DAC_OVERRIDE every file.
std::string drop_capabilities() {
  for (int cap = 0; cap <= 63; ++cap)
    if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM) break;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capset, &header, data) != 0) return std::string("capset: ") + std::strerror(errno);
  return "";
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
