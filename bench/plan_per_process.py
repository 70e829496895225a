"""Why one problem runs at two speeds in fresh processes (level1/83's ConvTranspose2d: 2.82-2.89 ms
in some, 3.38-3.40 ms in others, whatever the free memory: bench/plan_vs_free_memory.py).

Each fresh process times the problem's forward (median of 40 calls), then the same after its inputs
are cloned to other addresses and the allocator's cache is emptied (a different placement of the
inputs and outputs), then after its weights are cloned too (level3/6_VGG16's identity moves by up
to 1.3% from one run to the next, each run's interval about 0.7% wide: session 34), and lists the kernels of one call (torch.profiler) with their GPU times: the
same kernels at another speed says placement, other kernels says the plan; its forward in a few
fresh memory pools in turn (every buffer of a call on memory not used before, within one process);
and a second instance of the model, built from the same seed, timed against the first call by call
(the factor shared by every model of a process, or each model's own).
Usage: python bench/plan_per_process.py PROBLEM.py [PROCESSES [HOG_GIB [vmm]]]   (needs a CUDA device)
  vmm: the inputs in a cuMemCreate mapping of their own, as kforge's exchange arena holds a
  candidate's (a lead for level 1's transposed convolutions under the VMM arena: not yet run)
"""
import importlib.util
import json
import os
import statistics
import subprocess
import sys

import torch


def call_ms(model, inputs):
    """One forward's GPU time between two events (the caller holds torch.no_grad())."""
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    model(*inputs)
    b.record()
    b.synchronize()
    return a.elapsed_time(b)


def median_ms(model, inputs, calls=40):
    with torch.no_grad():
        return statistics.median(call_ms(model, inputs) for _ in range(calls))


def load_problem(path):
    """The problem file as a module, its seed set as for every process here."""
    spec = importlib.util.spec_from_file_location("problem", path)
    problem = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(problem)
    torch.manual_seed(0)
    return problem


def in_vmm_mapping(inputs):
    """The tensors copied into one cuMemCreate allocation mapped into this process, as kforge's
    exchange arena holds a candidate's inputs (worker/exchange_arena.hpp), each at a 256-byte
    aligned offset; other arguments as they are."""
    import ctypes
    from ipc_mapping_speed import Access, View, check, cuda, granularity, prop
    offsets, end = [], 0
    for x in inputs:
        offsets.append(end)
        end += (x.numel() * x.element_size() + 255) // 256 * 256 if isinstance(x, torch.Tensor) else 0
    size = max((end + granularity() - 1) // granularity() * granularity(), granularity())
    handle, va = ctypes.c_uint64(), ctypes.c_uint64()
    check(cuda.cuMemCreate(ctypes.byref(handle), ctypes.c_size_t(size), ctypes.byref(prop()), ctypes.c_uint64(0)), "cuMemCreate")
    check(cuda.cuMemAddressReserve(ctypes.byref(va), ctypes.c_size_t(size), ctypes.c_size_t(0), ctypes.c_uint64(0), ctypes.c_uint64(0)), "reserve")
    check(cuda.cuMemMap(va, ctypes.c_size_t(size), ctypes.c_size_t(0), handle, ctypes.c_uint64(0)), "map")
    check(cuda.cuMemSetAccess(va, ctypes.c_size_t(size), ctypes.byref(Access(1, 0, 3)), ctypes.c_size_t(1)), "access")
    placed = []
    for x, offset in zip(inputs, offsets):
        if not isinstance(x, torch.Tensor):
            placed.append(x)
            continue
        raw = torch.as_tensor(View(va.value + offset, x.numel()), device="cuda")  # float32 words
        view = raw.view(torch.uint8)[: x.numel() * x.element_size()].view(x.dtype).view(x.shape)
        view.copy_(x)
        placed.append(view)
    return placed


def two_instances(problem, model, inputs, rounds=30):
    """A second instance of the model, built from the same seed into memory of its own, timed call by
    call against the first in turn (ABAB): their medians' ratio within a process, beside the first's
    spread from process to process, says whether the per-process factor is the process's (shared by
    every model in it, as before the process boundary, when a reference and its identity candidate
    in one process timed within 0.2% of each other on level 1) or each model's tensors' (DETR's
    weights re-placed move it, VGG's do not)."""
    torch.manual_seed(0)
    other = problem.Model(*problem.get_init_inputs()).cuda()
    a, b = [], []
    with torch.no_grad():
        for _ in range(rounds):
            a.append(call_ms(model, inputs))
            b.append(call_ms(other, inputs))
    del other
    return statistics.median(a), statistics.median(b)


def one_process(path, hog_gib=0, vmm=False):
    problem = load_problem(path)
    model = problem.Model(*problem.get_init_inputs()).cuda()
    # A hog between the weights and the inputs: the first call's buffers far from the weights.
    hog = torch.empty(hog_gib << 30, dtype=torch.uint8, device="cuda") if hog_gib else None
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in problem.get_inputs()]
    if vmm:  # as a candidate's process on kforge's VMM arena computes on them
        inputs = in_vmm_mapping(inputs)
    first = median_ms(model, inputs)
    instance_a, instance_b = two_instances(problem, model, inputs)
    spacer = torch.empty(3 << 30, dtype=torch.uint8, device="cuda")
    moved = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
    del inputs
    torch.cuda.empty_cache()
    moved_ms = median_ms(model, moved)
    # The weights re-placed too (a large model's, VGG16's 550 MB, are most of what a call reads):
    # the same process at another speed says the weights' placement sets it.
    with torch.no_grad():
        for param in model.parameters():
            param.data = param.data.clone()
    torch.cuda.empty_cache()
    weights_moved_ms = median_ms(model, moved)
    del spacer
    pool_rounds_ms = in_fresh_pools(model, moved)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof, torch.no_grad():
        model(*moved)
        torch.cuda.synchronize()
    kernels = sorted(((e.key, e.device_time_total / 1e3) for e in prof.key_averages() if e.device_time_total > 0),
                     key=lambda k: -k[1])[:3]
    print(json.dumps({"ms": first, "moved_ms": moved_ms, "weights_moved_ms": weights_moved_ms,
                      "instance_a_ms": instance_a, "instance_b_ms": instance_b,
                      "pool_rounds_ms": pool_rounds_ms, "kernels": [[k[:90], round(t, 3)] for k, t in kernels]}))


def in_fresh_pools(model, inputs, rounds=4):
    """The forward's median in `rounds` memory pools of its own, one after another, each earlier
    pool kept alive: the activations, the library workspaces (cuBLAS's dropped first) and every
    other buffer a call allocates land on memory no earlier round used. Whether a process's speed
    moves from round to round as much as from one fresh process to the next says whether the
    per-process factor is where a call's buffers are (re-placing the inputs, above, does not move
    it; re-placing the weights moves DETR's, not VGG's: sessions 36 and 40)."""
    if not hasattr(torch.cuda, "MemPool"):
        return []
    kept, times = [], []
    for _ in range(rounds):
        pool = torch.cuda.MemPool()
        kept.append(pool)
        torch._C._cuda_clearCublasWorkspaces()
        with torch.cuda.use_mem_pool(pool):
            times.append(median_ms(model, inputs))
    torch._C._cuda_clearCublasWorkspaces()
    return times


def fresh_process(script, path, hog_gib, *extra):
    """`script --one PATH HOG [EXTRA...]` in a fresh interpreter: its JSON line as a dict, or why it gave none."""
    out = subprocess.run([sys.executable, script, "--one", path, str(hog_gib), *extra], capture_output=True, text=True)
    line = next((l for l in out.stdout.splitlines() if l.startswith("{")), None)
    if line is None:
        return f"failed: {(out.stderr.strip().splitlines() or ['?'])[-1][:100]}"
    return json.loads(line)


def main():
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--one":
        one_process(sys.argv[2], int(sys.argv[3]), sys.argv[4:] == ["vmm"])
        return
    path, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 8
    hog = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    vmm = sys.argv[4:5] == ["vmm"]
    settings = " ".join(f"{k}={os.environ[k]}" for k in ("PYTORCH_CUDA_ALLOC_CONF", "CUDA_MODULE_LOADING") if k in os.environ)
    print(f"{path} (hog {hog} GiB between the weights and the inputs; inputs in {'a VMM mapping' if vmm else 'torch memory'}"
          f"{'; ' + settings if settings else ''})")
    firsts, rounds, instance_ratios = [], [], []
    for i in range(n):
        r = fresh_process(__file__, path, hog, *(["vmm"] if vmm else []))
        if isinstance(r, str):
            print(f"  process {i}: {r}")
            continue
        firsts.append(r["ms"])
        rounds.append(r.get("pool_rounds_ms", []))
        instance_ratios.append(r["instance_b_ms"] / r["instance_a_ms"])
        print(f"  process {i}: {r['ms']:.3f} ms, inputs moved {r['moved_ms']:.3f} ms, weights moved too "
              f"{r['weights_moved_ms']:.3f} ms; a second instance, ABAB: {r['instance_a_ms']:.3f} against "
              f"{r['instance_b_ms']:.3f} ms ({instance_ratios[-1]:.4f}); in fresh pools " +
              " ".join(f"{t:.3f}" for t in r.get("pool_rounds_ms", [])) + " ms; " +
              "; ".join(f"{k} {t} ms" for k, t in r["kernels"]), flush=True)
    # The spread an identity candidate's two processes draw from (its reference and candidate
    # each in a fresh process): what the settings above are compared by.
    if len(firsts) > 1:
        mid = statistics.median(firsts)
        print(f"  spread over {len(firsts)} processes: {min(firsts):.3f}-{max(firsts):.3f} ms, "
              f"{(max(firsts) - min(firsts)) / mid * 100:.2f}% of the median {mid:.3f} ms")
        # Within a process, across its fresh pools: the largest such range beside the spread above.
        inside = [(max(r) - min(r)) / statistics.median(r) * 100 for r in rounds if len(r) > 1]
        if inside:
            print(f"  within one process, across fresh pools: largest range {max(inside):.2f}%, "
                  f"median range {statistics.median(inside):.2f}%")
        # Two instances in one process: near 1.0000 in every process, while the processes spread,
        # says the factor is the process's; as far apart as the processes, the tensors'.
        print(f"  second instance against the first, one process each: {min(instance_ratios):.4f}-"
              f"{max(instance_ratios):.4f}")


if __name__ == "__main__":
    main()
