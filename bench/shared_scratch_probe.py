"""Where a problem's per-process speed comes from: fresh processes time the same forward with
every allocation (weights, inputs, outputs, workspaces) from memory of their own, or from one
physical allocation the parent made and shares with all of them (CUDA IPC), carved the same way
in each (a bump allocator behind a torch MemPool), so each process computes on the very same
pages at the same offsets; and each of the two in processes started three ways: exec'd with the
address space randomised as usual, exec'd under `setarch -R` (so every process's mappings, the
CUDA driver's virtual addresses among them, land where the last one's did), or forked from a
zygote that imported torch and made no CUDA context (as kforge starts the twin and the candidate). The parent times the same forward on its own model after
each round: one process's drift over the run, against which the others' spread is read.

Across the process boundary a problem's speed is drawn per process (level1/66 and level1/76 on
an H100, each side's time 0.2-0.5% apart from process to process; level1/83 on the H200 at two
speeds 19% apart: docs/benchmarks.md, sessions 43-46). Shared pages halved level1/76's spread and
left level1/66's (session 46); the virtual addresses are the other thing a process draws at
start. If they are the cause, the processes without randomisation run at one speed, and the judge
can start the twin and the candidate's process without it (forked processes inherit the zygote's
layout already: whether that makes their addresses alike is the third row). The processes run one after another,
never two at once; each reports its first input's device address, so a row shows whether its
processes really shared their addresses.
Usage: python bench/shared_scratch_probe.py PROBLEM.py [PROCESSES_PER_MODE [SCRATCH_GIB]]   (needs a CUDA device)
"""
import ctypes
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile

import torch
import torch.multiprocessing as mp
from multiprocessing import forkserver

# The pluggable allocator torch's MemPool calls for each new segment: it hands out the shared
# scratch from its start, in order, and never gives back (the pool caches what it frees), so
# processes that make the same requests get the same offsets.
ALLOCATOR_C = r"""
#include <stddef.h>
#include <stdint.h>
static uintptr_t base = 0, used = 0, size = 0;
void scratch_set(void* b, size_t s) { base = (uintptr_t)b; size = s; used = 0; }
size_t scratch_used(void) { return used; }
void* scratch_malloc(ptrdiff_t bytes, int device, void* stream) {
  (void)device; (void)stream;
  size_t granule = (size_t)2 << 20;
  size_t take = ((size_t)bytes + granule - 1) / granule * granule;
  if (base == 0 || used + take > size) return NULL;
  void* p = (void*)(base + used);
  used += take;
  return p;
}
void scratch_free(void* p, ptrdiff_t bytes, int device, void* stream) { (void)p; (void)bytes; (void)device; (void)stream; }
"""


def build_allocator(folder):
    source, library = os.path.join(folder, "scratch.c"), os.path.join(folder, "libscratch.so")
    with open(source, "w") as f:
        f.write(ALLOCATOR_C)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    return library


def load_problem(path):
    spec = importlib.util.spec_from_file_location("problem", path)
    problem = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(problem)
    return problem


def forward_ms(model, inputs, calls=40):
    """The median of `calls` forwards' GPU times, each between two events, after five untimed ones."""
    times = []
    with torch.no_grad():
        for i in range(calls + 5):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            model(*inputs)
            b.record()
            b.synchronize()
            if i >= 5:
                times.append(a.elapsed_time(b))
    return statistics.median(times)


def child(path, scratch, library, results):
    """One fresh process: builds the model and inputs from fixed seeds and times the forward, every
    allocation in a MemPool: on the shared scratch when `scratch` is a tensor, else on fresh memory."""
    problem = load_problem(path)
    if scratch is not None:
        lib = ctypes.CDLL(library)
        lib.scratch_set.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        lib.scratch_used.restype = ctypes.c_size_t
        lib.scratch_set(scratch.data_ptr(), scratch.numel())
        allocator = torch.cuda.memory.CUDAPluggableAllocator(library, "scratch_malloc", "scratch_free")
        pool = torch.cuda.MemPool(allocator.allocator())
    else:
        pool = torch.cuda.MemPool()
    with torch.cuda.use_mem_pool(pool):
        torch.manual_seed(0)
        model = problem.Model(*problem.get_init_inputs()).cuda()
        torch.manual_seed(1)
        inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in problem.get_inputs()]
        ms = forward_ms(model, inputs)
        first = next(x for x in inputs if isinstance(x, torch.Tensor))
        results.put((ms, first.data_ptr()))


def unrandomised_python(folder):
    """A launcher that starts this Python under `setarch -R` (no address-space randomisation), or
    None where the machine refuses it (a container's seccomp may forbid the personality call)."""
    arch = os.uname().machine
    if subprocess.run(["setarch", arch, "-R", "true"], capture_output=True).returncode != 0:
        return None
    launcher = os.path.join(folder, "python-norandom")
    with open(launcher, "w") as f:
        f.write(f'#!/bin/sh\nexec setarch {arch} -R "{sys.executable}" "$@"\n')
    os.chmod(launcher, 0o755)
    return launcher


def summary(label, t, addresses=None):
    if len(t) < 2:
        return f"  {label:<34} {len(t)} processes"
    line = (f"  {label:<34} {len(t)} processes  median {statistics.median(t):.4f} ms"
            f"  range {min(t):.4f}-{max(t):.4f} ({100 * (max(t) / min(t) - 1):.2f}%)"
            f"  sd {100 * statistics.stdev(t) / statistics.mean(t):.2f}%")
    if addresses is not None:
        line += f"  input addresses {len(set(addresses))} distinct"
    return line


def main():
    path = sys.argv[1]
    processes = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    scratch_gib = float(sys.argv[3]) if len(sys.argv) > 3 else 8
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory() as folder:
        library = build_allocator(folder)
        launcher = unrandomised_python(folder)
        if launcher is None:
            print("setarch -R is refused here: the unrandomised modes are left out", flush=True)
        scratch = torch.empty(int(scratch_gib * (1 << 30)), dtype=torch.uint8, device="cuda")
        # The parent's own model, timed once a round: the drift of one process over the run.
        problem = load_problem(path)
        torch.manual_seed(0)
        own_model = problem.Model(*problem.get_init_inputs()).cuda()
        torch.manual_seed(1)
        own_inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in problem.get_inputs()]
        # Forked from a zygote: a forkserver that imported torch (started from the usual interpreter).
        zygote = mp.get_context("forkserver")
        zygote.set_forkserver_preload(["torch"])
        ctx.set_executable(sys.executable)
        forkserver.ensure_running()
        starts = ["exec", "zygote"] + (["setarch"] if launcher is not None else [])
        modes = [(shared, start) for shared in (False, True) for start in starts]
        queues = {"exec": ctx.Queue(), "setarch": ctx.Queue(), "zygote": zygote.Queue()}
        got = {mode: [] for mode in modes}
        addresses = {mode: [] for mode in modes}
        parent = []
        for _ in range(processes):
            for mode in modes:  # alternated, so drift over the run touches every mode alike
                shared, start = mode
                maker = zygote if start == "zygote" else ctx
                if start != "zygote":
                    ctx.set_executable(launcher if start == "setarch" else sys.executable)
                p = maker.Process(target=child, args=(path, scratch if shared else None, library, queues[start]))
                p.start()
                p.join()
                if p.exitcode != 0:
                    print(f"a child ended with {p.exitcode}", flush=True)
                    continue
                ms, address = queues[start].get()
                got[mode].append(ms)
                addresses[mode].append(address)
                print(f"  {label_of(mode):<34} {ms:.4f} ms  input at {address:#x}", flush=True)
            parent.append(forward_ms(own_model, own_inputs))
            print(f"  {'the parent (one process)':<34} {parent[-1]:.4f} ms", flush=True)
    print(os.path.basename(path))
    for mode in modes:
        print(summary(label_of(mode), got[mode], addresses[mode]))
    print(summary("the parent (one process)", parent))


def label_of(mode):
    shared, start = mode
    how = {"exec": "exec'd", "setarch": "exec'd, setarch -R", "zygote": "forked from a zygote"}[start]
    return ("shared scratch" if shared else "own memory") + ", " + how


if __name__ == "__main__":
    main()
