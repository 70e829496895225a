"""kforge's zygote: forks one fresh process per candidate (src/worker/zygote_client.hpp).

Started by kforge_worker.py before it imports torch, with an environment stripped to what torch,
CUDA and the build need. It imports torch and kforge's module here, once, and never makes a CUDA
context, so a fork is a clean copy that makes its own. Each request on the control socket carries
one end of a new socket; the child serves its reference process's requests on it and nothing else.
A request's byte says what to start (src/worker/zygote_client.cpp): b"c" a candidate; b"r" a rank
of a multi-rank job, whose network namespace follows the socket; b"u" a rank whose user namespace
and network namespace follow it. A rank joins them right after the fork, while it is one thread and
before any other code runs in it, and its sandbox then allows sockets there only. The zygote
answers "spawned <pid>", or "refused <why>" to a request it cannot read.
The zygote reaps its children (and, as their subreaper, whatever they leave behind) and reports
each exit as "exited <pid> <wait status>".
"""
import ctypes
import faulthandler
import os
import select
import signal
import socket
import sys
import warnings

# torch.cuda.is_available() (which importing torch.utils.cpp_extension calls) would otherwise ask the
# CUDA runtime, which initialises the driver here and makes every forked child unable to use CUDA
# ("Cannot re-initialize CUDA in forked subprocess"); through NVML it initialises nothing.
os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"
# torch.compile compiles in a pool of worker processes and threads by default (as many as the
# cores, up to 32), which outlive the call that compiled: the candidate process's watch judged an
# honest torch.compile candidate `rejected` for them (thread-injection, process-injection) until
# session 41. One compile thread compiles in the calling thread and leaves nothing running.
os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
# Python 3.12 warns on every fork of a process with threads (torch's import starts some); the
# child only runs kforge's code until it makes its own CUDA context.
warnings.filterwarnings("ignore", category=DeprecationWarning, message=".*use of fork\\(\\) may lead to deadlocks.*")

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

faulthandler.enable()
control = socket.socket(fileno=int(sys.argv[1]))
reference_pid, kforge_pid = int(sys.argv[2]), int(sys.argv[3])
libc = ctypes.CDLL(None, use_errno=True)
# Orphans of a candidate (a double fork) become this process's, so they are reaped and killed.
libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
# The reference process gone: SIGTERM here, which kills every candidate group before leaving.
libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
children = set()


def reap(signum, frame):
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in children:
            children.discard(pid)
            try:
                control.sendall(f"exited {pid} {status}\n".encode())
            except OSError:
                pass


def leave(signum, frame):
    for pid in list(children):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(0)


signal.signal(signal.SIGCHLD, reap)
signal.signal(signal.SIGTERM, leave)
# A signal may reach any thread (torch's import starts some), and Python runs its handler on the
# main thread only when that thread next runs: blocked in recv_fds, it would report a crashed
# candidate's exit only with the next spawn. Every signal also writes a byte to this pipe, which
# the loop waits on, so the handler runs at once.
wakeup_read, wakeup_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
signal.set_wakeup_fd(wakeup_write, warn_on_full_buffer=False)
if os.getppid() != reference_pid:  # it died while this process started
    leave(None, None)

import torch  # noqa: E402,F401  (loads libtorch before the extension that links it)

import _kforge_worker  # noqa: E402

import kforge_inline  # noqa: E402
import kforge_train  # noqa: E402,F401  (training problems wrap candidates in its TrainStep after the sandbox)

kforge_inline.install()
# The network namespace ranks leave (their sandbox allows sockets only once they have left it).
zygote_network = _kforge_worker.network_namespace_id()
if torch.cuda.is_initialized():  # a fork of this process could not use CUDA: say so, loudly
    print("kforge zygote: CUDA was initialised before forking; candidate processes will fail", file=sys.stderr)
# What the imports made (torch's objects, 160,000 and more) frozen out of the cyclic collector's
# reach in every process forked from here, candidates and reference twins alike: a collection there
# looks only at what the process made itself. A reference twin's unload collects after each
# problem (src/worker/candidate_host.cpp); over torch's objects that took 134 ms on the
# development machine. (The worker freezes its own the same way, src/worker/job_loop.cpp.)
import gc  # noqa: E402

gc.collect()
gc.freeze()

while True:
    ready, _, _ = select.select([control, wakeup_read], [], [])
    if wakeup_read in ready:
        try:
            os.read(wakeup_read, 4096)  # the handlers run on return to Python, before the next wait
        except BlockingIOError:
            pass
        if control not in ready:
            continue
    try:
        message, fds, _, _ = socket.recv_fds(control, 1, 3)
    except OSError:
        leave(None, None)
    if not message:  # the reference process closed the socket
        leave(None, None)
    if not fds:
        continue
    # The namespaces a rank joins: (user or -1, network), or None for a candidate.
    expected = {b"c": 1, b"r": 2, b"u": 3}.get(message[:1])
    if expected != len(fds):
        for fd in fds:
            os.close(fd)
        control.sendall(f"refused a request of kind {message[:1]!r} with {len(fds)} descriptors\n".encode())
        continue
    rank_network = None if expected == 1 else (fds[1] if expected == 3 else -1, fds[-1])
    # SIGCHLD waits until the child is on the list: one that dies at once is still reported.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            control.close()
            signal.set_wakeup_fd(-1)
            os.close(wakeup_read)
            os.close(wakeup_write)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            # The candidate's process takes the orphans of what it starts (a double fork's
            # grandchild), so they stay in the tree kforge reads when it stops the process and
            # among the children its checks look for; they went to this zygote until session 41,
            # out of both (tests/adversarial/process_injection_orphan.py, `correct` then). Its
            # filter denies clearing it (seccomp_filter.hpp: keep_child_subreaper).
            libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
            libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
            os.setpgid(0, 0)
            apart_from = 0
            if rank_network is not None:
                _kforge_worker.join_private_network(*rank_network)
                for fd in fds[1:]:
                    os.close(fd)
                apart_from = zygote_network
            status = _kforge_worker.serve_candidate(fds[0], [os.getppid(), reference_pid, kforge_pid], apart_from)
        except BaseException as e:  # noqa: BLE001 (its stderr is the worker's log; the exit is reported)
            print(f"kforge zygote child {os.getpid()}: {type(e).__name__}: {e}", file=sys.stderr)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
    try:
        os.setpgid(pid, pid)  # also from here, so a kill right after the reply reaches the group
    except OSError:
        pass  # it has already set it, or died (and is reported below)
    children.add(pid)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
    for fd in fds:
        os.close(fd)
    control.sendall(f"spawned {pid}\n".encode())
