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
