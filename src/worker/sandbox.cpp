#include "worker/sandbox.hpp"

#include <dirent.h>
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
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <vector>

#include "common/capabilities.hpp"
#include "common/colon_list.hpp"
#include "common/landlock.hpp"
#include "common/owned_fd.hpp"
#include "common/seccomp_filter.hpp"
#include "common/system_reads.hpp"
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
// judge (seccomp::process_escape_calls) or to leave state the kernel keeps after it
// (seccomp::lingering_ipc_calls), and signals and sockets as the candidate's process may have them.
std::string deny_candidate_calls(const std::vector<int>& protected_pids, bool signals_scoped, bool private_network) {
  Program p;
  check_architecture(p);
  deny_calls(p, process_escape_calls(), kDenyPerm);
  deny_calls(p, lingering_ipc_calls(), kDenyPerm);
  keep_to_own_process(p, static_cast<int>(::getpid()));
  deny_chosen_wake_signals(p);
  keep_child_subreaper(p);
  // A POSIX timer's signal can be SIGCONT: the process kforge stopped would resume itself, every
  // millisecond if it likes, and, on a loaded machine, never be seen stopped whole (so the
  // ran-while-stopped check in CandidateProcess never had a baseline). setitimer's signals cannot.
  deny_calls(p, {__NR_timer_create}, kDenyPerm);
  if (signals_scoped) deny_signals_to(p, protected_pids);
  else allow_signals_only_within(p, static_cast<int>(::getpid()));
  deny_network_sockets(p, private_network);
  return install(p);
}

// The kernel's OOM killer takes the process of the highest score, by default the largest: a
// memory bomb spread over many small children, growing faster than the tree's memory bound looks
// (pool/tree_memory.hpp, at least every 200 ms), left the judge the largest process to take. Set
// to the top (1000) before the capabilities go, the candidate's processes are taken first, their
// children too (the score is inherited). Where kforge holds CAP_SYS_RESOURCE the kernel also makes
// 1000 the least the process may set itself; without it (a container's root, as on the
// development machine, or a user), the kernel would let a candidate lower it again to kforge's own
// score, so its Landlock rule leaves it no /proc file to write (confine_files):
// CpuIsolation.TheOomKillerTakesTheCandidateFirst. An empty string, or why it could not be raised.
std::string raise_oom_score() {
  const OwnedFd fd(::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC));
  if (!fd.valid()) return std::strerror(errno);
  return ::write(fd.get(), "1000", 4) == 4 ? "" : std::strerror(errno);
}

// No capabilities, now or after an exec (common/capabilities.hpp).
std::string drop_capabilities() {
  return drop_all_capabilities() ? "" : std::string("capset: ") + std::strerror(errno);
}

// What each thread made before the sandbox runs when asked (confine_other_threads): the same
// Landlock ruleset, no_new_privs, no capabilities. System calls only: async-signal-safe.
std::atomic<int> g_ruleset_for_threads{-1};
std::atomic<int> g_threads_confined{0}, g_threads_refused{0};
void confine_this_thread(int) {
  const int saved = errno;
  bool ok = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
  if (const int ruleset = g_ruleset_for_threads.load(); ruleset >= 0)
    ok = landlock::restrict_self(ruleset) && ok;
  ok = drop_all_capabilities() && ok;
  (ok ? g_threads_confined : g_threads_refused).fetch_add(1);
  errno = saved;
}

// Whether `signal` is blocked in thread `tid` of this process (its SigBlk mask in /proc).
bool blocks_signal(int tid, int signal) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/status", tid);
  FILE* f = std::fopen(path, "re");
  if (!f) return false;
  char line[256];
  bool blocked = false;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "SigBlk:", 7) == 0) {
      const unsigned long long mask = std::strtoull(line + 7, nullptr, 16);
      blocked = (mask >> (signal - 1)) & 1ULL;
      break;
    }
  std::fclose(f);
  return blocked;
}

// Landlock and capabilities bind the calling thread only, and every thread it starts later: the
// threads made before the sandbox (torch's OpenMP workers, made during the calibration; the CUDA
// driver's) kept no file rules and, as root, every capability, and libgomp runs a candidate's
// callback on its workers (GOMP_parallel from ctypes: a user's file and kforge's store read from
// there; red-team, session 35, tests/adversarial/secrets_through_an_early_thread.py). So each of
// them is signalled to confine itself as this thread did (glibc's setxid broadcast does the same
// for set*id). A thread that blocks the signal cannot be asked; it is counted, and said.
std::string confine_other_threads(int ruleset) {
  const int signal = SIGRTMIN + 6;  // glibc keeps the first few real-time signals for itself
  struct sigaction action {};
  action.sa_handler = confine_this_thread;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  // Left installed: a signal that arrives late still finds the handler (the default would end the process).
  if (::sigaction(signal, &action, nullptr) != 0) return std::string("sigaction: ") + std::strerror(errno);
  g_ruleset_for_threads = ruleset;
  g_threads_confined = 0;
  g_threads_refused = 0;
  const pid_t self = ::getpid(), me = static_cast<pid_t>(::syscall(SYS_gettid));
  int asked = 0, blocking = 0;
  if (DIR* tasks = ::opendir("/proc/self/task")) {
    while (const dirent* entry = ::readdir(tasks)) {
      const int tid = std::atoi(entry->d_name);
      if (tid <= 0 || tid == me) continue;
      if (blocks_signal(tid, signal)) ++blocking;
      else if (::syscall(SYS_tgkill, self, tid, signal) == 0) ++asked;
    }
    ::closedir(tasks);
  }
  for (int waited_ms = 0; g_threads_confined + g_threads_refused < asked && waited_ms < 2000; ++waited_ms)
    ::usleep(1000);
  const int confined = g_threads_confined, refused = g_threads_refused;
  g_ruleset_for_threads = -1;
  if (confined == asked && blocking == 0) return "";
  return std::to_string(asked + blocking - confined) + " of " + std::to_string(asked + blocking) +
         " threads made before it not confined (" + std::to_string(refused) + " refused, " +
         std::to_string(blocking) + " block the signal, " + std::to_string(asked - confined - refused) +
         " did not answer)";
}

// Confines writes to `writable` (and /dev, and /proc: all of it for the reference process; for a
// candidate none of /proc, and only common/system_reads.hpp's usable devices, /dev/shm among
// them for a rank's, `shared_memory`). With
// `readable` (candidates), reads are confined too, to those paths (folders or single files), the
// writable ones, the devices, /proc and /sys. For a
// candidate, where the kernel has it, signals and abstract Unix sockets are scoped to its own
// Landlock domain (`scoped` says whether).
std::string confine_files(const std::vector<std::string>& writable, const std::vector<std::string>* readable,
                          int& abi, bool candidate, bool* scoped, std::string* other_threads = nullptr,
                          SharedMemory shared_memory = SharedMemory::denied) {
  abi = landlock::abi();
  if (abi < 1) return "Landlock is not available in this kernel";
  landlock::Confinement confinement;
  confinement.writable = writable;
  if (readable) confinement.readable = *readable;
  // Nothing of /proc for a candidate: not /proc/sys, not another process's files, and not its own
  // settings, oom_score_adj among them, which without CAP_SYS_RESOURCE it could lower back to
  // kforge's score (raise_oom_score). Each thread's directory holds the process's oom_score_adj
  // too, so no part of /proc/<pid> is left writable: a thread names itself with a system call
  // (prctl), and the C library's write of another thread's name (/proc/<pid>/task/<tid>/comm) is
  // refused, as it always was in the candidate's children, each of another pid.
  confinement.writable_proc = candidate ? "" : "/proc";
  // A candidate's code gets the devices a kernel needs, not every node root owns (a disk, a tty).
  if (candidate) confinement.devices = usable_device_paths(shared_memory);
  // KFORGE_WORKER_NO_SIGNAL_SCOPE: the tests' way to exercise the seccomp rule older kernels rely on.
  confinement.scope_signals = candidate && !std::getenv("KFORGE_WORKER_NO_SIGNAL_SCOPE");
  std::string error;
  bool signals_scoped = false;
  OwnedFd ruleset = landlock::confining_ruleset(confinement, &error, &signals_scoped);
  if (!ruleset.valid()) return error;
  // A candidate's other threads first, while signals still reach them (Landlock's scope would not
  // let this thread, once restricted, signal a thread outside its domain).
  if (candidate) *other_threads = confine_other_threads(ruleset.get());
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
  // Before the process stops being dumpable: its /proc files are root's then, which kforge run as
  // a user could not write.
  const std::string oom = raise_oom_score();
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  std::string caps = drop_capabilities();
  int abi = 0;
  std::string other_threads;
  std::string fs = confine_files(writable, &readable, abi, true, &s.signals_scoped, &other_threads,
                                 private_network ? SharedMemory::allowed : SharedMemory::denied);
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
               "; capabilities " + (caps.empty() ? "dropped" : "NOT dropped (" + caps + ")") +
               (oom.empty() ? "; the OOM killer's first choice" : "; OOM score NOT raised (" + oom + ")") +
               (other_threads.empty() ? "; every thread made before it confined too" : "; " + other_threads);
  s.threads_confined = other_threads.empty();
  return s;
}

}  // namespace kforge::worker
