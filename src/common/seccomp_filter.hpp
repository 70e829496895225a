#pragma once
// The pieces of kforge's seccomp filters (classic BPF over the system call number and arguments),
// shared by the worker's sandboxes (worker/sandbox.hpp: the reference process, the candidate's) and
// the compilers a load_inline build runs (build/compilers.hpp), whose flags are a candidate's and
// can run programs of its choosing (g++'s -B and -wrapper, -fplugin, nvcc's --compiler-bindir).
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace kforge::seccomp {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
#error "kforge's seccomp filters know x86_64 and aarch64"
#endif

inline constexpr unsigned kDeny = SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA);
inline constexpr unsigned kDenyPerm = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);

using Program = std::vector<sock_filter>;

inline sock_filter stmt(uint16_t code, uint32_t k) { return BPF_STMT(code, k); }
inline sock_filter jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) { return BPF_JUMP(code, k, jt, jf); }

// The start of every filter: another architecture's calling convention (a 32-bit int 0x80 call)
// or x32's second table of the same calls (bit 30) could dodge the numbers checked after it.
void check_architecture(Program& p);

// Expects the system call number loaded; denies each of `calls` with `action`.
void deny_calls(Program& p, const std::vector<long>& calls, unsigned action);

// Expects the number loaded; socket(AF_INET/AF_INET6/AF_PACKET) denied, other families allowed;
// with `allow_inet` (a rank in its private network namespace) only AF_PACKET. io_uring can open
// sockets without the socket() system call: denied either way. Ends the program.
void deny_network_sockets(Program& p, bool allow_inet = false);

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
void deny_signals_to(Program& p, const std::vector<int>& pids);

// Without it (kernels before 6.12): signals only to the process itself and its own group (which
// holds everything it started: none of it can leave), and the existence probe (signal 0) to any.
// Its children are signalled through the group; one child alone cannot be (a compiler's timeout
// in `kforge build-inline` then waits for the job's deadline).
void allow_signals_only_within(Program& p, int self);

// Expects the number loaded; the calls that change another process of the same user without any
// capability, given its pid, allowed only on the caller itself (0 or `self`; 0 alone where `self`
// is 0): prlimit64 (a reference process given RLIMIT_CPU of 1 s was killed at once, kforge given
// RLIMIT_FSIZE 0 died at its next write to the store: red-team, session 35), setpriority and
// ioprio_set (for one process only, never a group or a user), sched_setscheduler, sched_setparam,
// sched_setattr. (sched_setaffinity stays open: libraries pin their own threads by thread id; the
// reference process and its twin pin their timing thread at every timed call.) Falls through.
void keep_to_own_process(Program& p, int self);
// Expects the number loaded; denies what has the kernel send a signal of the caller's choosing
// later, which could be SIGCONT to a process kforge stopped: fcntl's F_SETSIG (when an fd is
// ready) and mq_notify. (The candidate's filter denies timer_create as well.) Falls through.
void deny_chosen_wake_signals(Program& p);
// Expects the number loaded; denies prctl(PR_SET_CHILD_SUBREAPER): a candidate's process is the
// subreaper of everything it starts (kforge_zygote.py), so an orphan of a double fork stays in the
// tree kforge reads when it is stopped; clearing that would send its orphans out of it. Falls through.
void keep_child_subreaper(Program& p);
// What no kernel (a CUDA one, a Triton one) and no compiler needs, and a candidate would use to
// reach the judge: other processes' memory and tracing, leaving its process group (a double fork
// with setsid outlives the group kill), mounts, BPF, kernel keyrings, pidfds (a signal or an fd
// taken from another process), namespaces, kernel modules.
const std::vector<long>& process_escape_calls();
// What makes memory or state the kernel keeps after the process ends, outside any file a sandbox
// confines: System V shared memory, semaphores and message queues, and POSIX message queues. A
// SysV segment of 64 MiB made by a candidate outlived it, kforge and the worker, uncounted by any
// resident set, for the next candidate to attach by its key (`tests/adversarial/leak_sysv_shared_memory.py`,
// `correct` before session 42). No kernel, library or compiler kforge runs needs them.
const std::vector<long>& lingering_ipc_calls();

// Installs `p` on every thread of the calling process (no_new_privs first); empty, or why not.
std::string install(Program& p);

// The filter of a compiler run for a load_inline build: process_escape_calls denied, no network
// sockets, and, where Landlock does not scope its signals (`signals_scoped` false: kernels before
// 6.12), signals only to its own process group and existence probes (kill's signal 0): never kforge, the
// reference process or another worker. Built before the fork, installed in the child by
// install_in_child.
Program compiler_filter(bool signals_scoped);

// For a child between fork and exec (system calls only, async-signal-safe): no_new_privs, then
// `prog`, on the calling thread (the child's only one). False where the kernel refused.
bool install_in_child(const sock_fprog& prog);

}  // namespace kforge::seccomp
