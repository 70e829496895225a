"""How can kforge know a stopped candidate's GPU work has ended? An experiment for the H200.

kforge stops the candidate's process and probes the GPU with a tiny kernel from its own context
until a probe comes back as fast as on an idle GPU (worker/remote_candidate.cpp, drain_gpu). On the
H200 (ccec1c9) another process's loop of 100 ms sleep kernels was charged at 50 ms over a whole
evaluation and never reached the 100 ms rejection: the idle probe time it is compared with had been
measured beside that work (docs/benchmarks.md, session 26). This measures, in one run:

  1. probe latencies while another process's long kernel runs (time slicing: how many are fast);
  2. how much a kernel of ours is slowed beside it;
  3. the driver's checkpoint lock (cuCheckpointProcessLock), which blocks a process's CUDA calls
     and completes the work it has submitted: its cost on an idle process, whether it waits for a
     queued kernel;
  4. whether NVML (nvidia-smi) lists the other process;
  5. whether the lock works on a process stopped with SIGSTOP (on the H200 at ccec1c9 it never
     returned, its 2 s timeout notwithstanding; it is asked from a process of its own now, killed
     after 10 s, so the run always ends).

Usage: python3 bench/gpu_drain_probe.py  (one GPU; prints a table; about 30 s)
"""
import ctypes
import os
import signal
import statistics
import subprocess
import sys
import time

import torch

CHILD = r"""
import sys, torch
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
print("ready", flush=True)
for line in sys.stdin:
    words = line.split()
    if words[0] == "sleep":  # queue a kernel that spins this many ms, and do not wait for it
        torch.cuda._sleep(int(float(words[1]) * 1.98e6))
        print("queued", flush=True)
    elif words[0] == "sync":
        torch.cuda.synchronize()
        print("synced", flush=True)
"""


# Locks the process given, with a 2 s timeout, and says what came back and when.
LOCKER = r"""
import ctypes, sys, time
class LockArgs(ctypes.Structure):
    _fields_ = [("timeoutMs", ctypes.c_uint), ("reserved0", ctypes.c_uint), ("reserved1", ctypes.c_uint64 * 7)]
cuda = ctypes.CDLL("libcuda.so.1")
cuda.cuInit(0)
t0 = time.perf_counter()
rc = cuda.cuCheckpointProcessLock(int(sys.argv[1]), ctypes.byref(LockArgs(2000, 0)))
print(f"rc {rc}, {(time.perf_counter() - t0) * 1e3:.1f} ms")
"""


class LockArgs(ctypes.Structure):
    _fields_ = [("timeoutMs", ctypes.c_uint), ("reserved0", ctypes.c_uint), ("reserved1", ctypes.c_uint64 * 7)]


def main():
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    cuda = ctypes.CDLL("libcuda.so.1")
    cuda.cuInit(0)
    have_lock = hasattr(cuda, "cuCheckpointProcessLock")
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"

    def tell(cmd):
        child.stdin.write(cmd + "\n")
        child.stdin.flush()
        return child.stdout.readline().strip()

    def probe_ms():
        t0 = time.perf_counter()
        torch.cuda._sleep(1)
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) * 1e3

    rows = []

    def say(name, value):
        rows.append((name, value))
        print(f"{name}: {value}", flush=True)

    idle = statistics.median(probe_ms() for _ in range(200))
    say("idle probe, median ms", f"{idle:.4f}")

    # 1. Probes beside another process's 500 ms kernel.
    tell("sleep 500")
    t0 = time.perf_counter()
    lat = []
    while time.perf_counter() - t0 < 0.45:
        lat.append(probe_ms())
    fast = sum(1 for p in lat if p <= idle + 0.03)
    say("probes beside a 500 ms kernel (0.45 s)", f"{len(lat)} probes, {fast} fast, median {statistics.median(lat):.3f} ms, max {max(lat):.3f} ms")
    first_fast = next((i for i, p in enumerate(lat) if p <= idle + 0.03), None)
    say("  drain_gpu's loop would end after", f"{sum(lat[:first_fast]) if first_fast is not None else sum(lat):.3f} ms of probing (probe {first_fast})")
    tell("sync")

    # 2. A 20 ms kernel of ours, alone and beside another process's kernel.
    def timed_sleep(ms):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        s.record(); torch.cuda._sleep(int(ms * 1.98e6)); e.record(); torch.cuda.synchronize()
        return s.elapsed_time(e), (time.perf_counter() - t0) * 1e3
    alone = timed_sleep(20)
    tell("sleep 300")
    beside = timed_sleep(20)
    tell("sync")
    say("our 20 ms kernel alone (events, host)", f"{alone[0]:.2f}, {alone[1]:.2f} ms")
    say("  beside a 300 ms kernel (events, host)", f"{beside[0]:.2f}, {beside[1]:.2f} ms")

    # 3. The checkpoint lock.
    if not have_lock:
        say("cuCheckpointProcessLock", "not in this libcuda")
    else:
        lock, unlock, state = cuda.cuCheckpointProcessLock, cuda.cuCheckpointProcessUnlock, cuda.cuCheckpointProcessGetState
        lock.argtypes = [ctypes.c_int, ctypes.POINTER(LockArgs)]
        unlock.argtypes = [ctypes.c_int, ctypes.c_void_p]
        state.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int)]

        def lock_ms(timeout_ms):
            args = LockArgs(timeout_ms, 0)
            t0 = time.perf_counter()
            rc = lock(child.pid, ctypes.byref(args))
            return rc, (time.perf_counter() - t0) * 1e3

        def unlock_ms():
            t0 = time.perf_counter()
            rc = unlock(child.pid, None)
            return rc, (time.perf_counter() - t0) * 1e3

        def state_of():
            s = ctypes.c_int(-1)
            rc = state(child.pid, ctypes.byref(s))
            return f"rc {rc} state {s.value}"

        say("checkpoint state, running child", state_of())
        costs, ucosts, codes = [], [], set()
        for _ in range(20):
            rc, ms = lock_ms(5000); codes.add(rc); costs.append(ms)
            rc, ms = unlock_ms(); codes.add(rc); ucosts.append(ms)
        say("lock + unlock an idle child x20", f"lock median {statistics.median(costs):.3f} ms (max {max(costs):.3f}), unlock median {statistics.median(ucosts):.3f} ms; return codes {sorted(codes)}")

        tell("sleep 400")
        rc, ms = lock_ms(5000)
        say("lock right after the child queued a 400 ms kernel", f"rc {rc}, {ms:.1f} ms; {state_of()}")
        say("  a probe while it is locked", f"{probe_ms():.4f} ms")
        rc, ums = unlock_ms()
        say("  unlock", f"rc {rc}, {ums:.3f} ms; {state_of()}")
        tell("sync")


    # 4. NVML's view of who uses the GPU.
    smi = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,process_name,used_memory", "--format=csv,noheader"],
                         capture_output=True, text=True)
    say("nvidia-smi compute apps", smi.stdout.strip().replace("\n", " | ") or f"(none) {smi.stderr.strip()}")
    say("  our pid, the child's", f"{os.getpid()}, {child.pid}")

    # 5. Last, since it may leave the child locked for good: the lock of a process stopped by
    # SIGSTOP, from a process of its own, so that a lock that never returns cannot hang this one.
    if have_lock:
        child.stdin.write("sleep 400\n")
        child.stdin.flush()
        time.sleep(0.02)
        os.kill(child.pid, signal.SIGSTOP)
        time.sleep(0.05)
        try:
            locker = subprocess.run([sys.executable, "-c", LOCKER, str(child.pid)], capture_output=True, text=True,
                                    timeout=10)
            say("lock a child stopped with a 400 ms kernel queued (2 s timeout)", locker.stdout.strip() or locker.stderr.strip())
        except subprocess.TimeoutExpired:
            say("lock a child stopped with a 400 ms kernel queued (2 s timeout)", "no answer within 10 s (locker killed)")
    child.kill()
    child.wait(timeout=10)
    width = max(len(r[0]) for r in rows)
    print(f"gpu drain probe: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
