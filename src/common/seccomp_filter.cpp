#include "common/seccomp_filter.hpp"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace kforge::seccomp {

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

void deny_calls(Program& p, const std::vector<long>& calls, unsigned action) {
  for (long nr : calls) {
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 1));
    p.push_back(stmt(BPF_RET | BPF_K, action));
  }
}

void deny_network_sockets(Program& p, bool allow_inet) {
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

namespace {

// Loads argument `arg` of the call (its low 32 bits).
sock_filter load_argument(int arg) {
  return stmt(BPF_LD | BPF_W | BPF_ABS, static_cast<uint32_t>(offsetof(seccomp_data, args[0]) + 8 * arg));
}

// For call `nr` (the number loaded): the argument `who` must name the caller (0 or `self`), and where
// `which_arg` is not negative, argument `which_arg` must be `which` (one process, not a group or a
// user); otherwise denied. The number is loaded again at the end.
void only_on_self(Program& p, long nr, int who, int which_arg, uint32_t which, int self) {
  Program block;
  if (which_arg >= 0) {
    block.push_back(load_argument(which_arg));
    block.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, which, 1, 0));
    block.push_back(stmt(BPF_RET | BPF_K, kDenyPerm));
  }
  block.push_back(load_argument(who));
  block.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0));
  block.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(self), 1, 0));
  block.push_back(stmt(BPF_RET | BPF_K, kDenyPerm));
  block.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, static_cast<uint8_t>(block.size())));
  p.insert(p.end(), block.begin(), block.end());
}

// Expects the number loaded: call `nr` with argument `arg` equal to `value` is denied (EPERM), the
// number loaded again after. Falls through.
void deny_call_with_argument(Program& p, long nr, int arg, uint32_t value) {
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 4));
  p.push_back(load_argument(arg));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1));
  p.push_back(stmt(BPF_RET | BPF_K, kDenyPerm));
  p.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
}

}  // namespace

void keep_to_own_process(Program& p, int self) {
  constexpr uint32_t kPrioProcess = 0, kIoprioWhoProcess = 1;  // PRIO_PROCESS, IOPRIO_WHO_PROCESS
  only_on_self(p, __NR_prlimit64, 0, -1, 0, self);
  only_on_self(p, __NR_sched_setscheduler, 0, -1, 0, self);
  only_on_self(p, __NR_sched_setparam, 0, -1, 0, self);
  only_on_self(p, __NR_sched_setattr, 0, -1, 0, self);
  only_on_self(p, __NR_setpriority, 1, 0, kPrioProcess, self);
  only_on_self(p, __NR_ioprio_set, 1, 0, kIoprioWhoProcess, self);
}

void deny_chosen_wake_signals(Program& p) {
  // fcntl(fd, F_SETSIG, SIGCONT) has the kernel send SIGCONT when the fd is ready (a timerfd): a
  // process kforge stopped would resume itself and run beside the reference's timed calls.
  constexpr uint32_t kSetSig = 10;  // F_SETSIG
  deny_call_with_argument(p, __NR_fcntl, 1, kSetSig);
  deny_calls(p, {__NR_mq_notify}, kDenyPerm);  // a message queue's notice can be such a signal too
}

void keep_child_subreaper(Program& p) { deny_call_with_argument(p, __NR_prctl, 0, PR_SET_CHILD_SUBREAPER); }

const std::vector<long>& process_escape_calls() {
  static const std::vector<long> calls{
      __NR_ptrace,          __NR_process_vm_readv, __NR_process_vm_writev, __NR_setsid,        __NR_setpgid,
      __NR_mount,           __NR_umount2,          __NR_pivot_root,        __NR_chroot,        __NR_bpf,
      __NR_keyctl,          __NR_add_key,          __NR_request_key,       __NR_pidfd_open,    __NR_pidfd_getfd,
      __NR_pidfd_send_signal, __NR_tkill,          __NR_unshare,           __NR_setns,         __NR_init_module,
      __NR_finit_module,    __NR_delete_module,    __NR_kexec_load,        __NR_reboot,        __NR_swapon,
      __NR_swapoff,         __NR_process_madvise,  __NR_kcmp,              __NR_perf_event_open, __NR_userfaultfd};
  return calls;
}

const std::vector<long>& lingering_ipc_calls() {
  static const std::vector<long> calls{__NR_shmget, __NR_shmat,  __NR_shmctl,       __NR_shmdt,     __NR_semget,
                                       __NR_semop,  __NR_semctl, __NR_semtimedop,   __NR_msgget,    __NR_msgsnd,
                                       __NR_msgrcv, __NR_msgctl, __NR_mq_open,      __NR_mq_unlink, __NR_mq_timedsend,
                                       __NR_mq_timedreceive, __NR_mq_getsetattr};
  return calls;
}

std::string install(Program& p) {
  sock_fprog prog{static_cast<unsigned short>(p.size()), p.data()};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("no_new_privs: ") + std::strerror(errno);
  if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0)
    return std::string("seccomp: ") + std::strerror(errno);
  return "";
}

Program compiler_filter(bool signals_scoped) {
  Program p;
  check_architecture(p);
  deny_calls(p, process_escape_calls(), kDenyPerm);
  deny_calls(p, lingering_ipc_calls(), kDenyPerm);
  keep_to_own_process(p, 0);
  deny_chosen_wake_signals(p);
  // Without the scope: its own group (kill(0, ...)) and existence probes; the child's pid is not
  // known before the fork, so no process is named by its pid.
  if (!signals_scoped) allow_signals_only_within(p, 0);
  deny_network_sockets(p);
  return p;
}

bool install_in_child(const sock_fprog& prog) {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  return ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0;
}

}  // namespace kforge::seccomp
