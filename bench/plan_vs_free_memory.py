"""Whether a problem's speed in a fresh process follows the device memory free at its first call.

Torch's cuDNN convolutions choose a shape's plan on its first call among the heuristic's plans whose
workspace fits `cacheInfo`'s largest block, and that figure starts from cudaMemGetInfo's free
memory (c10's CUDACachingAllocator): what other processes hold on the GPU at that moment takes
part in the choice. Identity candidates of level 1's transposed convolutions came out 0.84-1.19
against their references once the two ran in processes of their own (docs/benchmarks.md).

For each size of a hog (device memory taken before the first call, in a fresh process each), this
prints the free memory at the first call, what the first call allocated at its peak (its workspace
and outputs), and the median of 15 timed calls after it. It also times what holding and freeing
that much memory costs (cudaMalloc and cudaFree under torch's allocator).
Usage: python bench/plan_vs_free_memory.py PROBLEM.py [PROBLEM.py...]   (needs a CUDA device)
"""
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plan_per_process import fresh_process, load_problem, median_ms  # noqa: E402  (a script beside this one)

HOGS_GIB = [0, 40, 80, 100, 110, 120, 125, 130, 133]


def one_process(path, hog_gib):
    problem = load_problem(path)
    model = problem.Model(*problem.get_init_inputs()).cuda()
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in problem.get_inputs()]
    torch.cuda.synchronize()
    free0, total = torch.cuda.mem_get_info()
    t0 = time.perf_counter()
    hog = None
    if hog_gib:
        want = min(hog_gib << 30, free0 - (3 << 30))
        hog = torch.empty(max(want, 0), dtype=torch.uint8, device="cuda") if want > 0 else None
    torch.cuda.synchronize()
    hog_ms = (time.perf_counter() - t0) * 1e3
    free, _ = torch.cuda.mem_get_info()
    before = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    with torch.no_grad():
        model(*inputs)
    torch.cuda.synchronize()
    first_peak = torch.cuda.max_memory_allocated() - before
    t0 = time.perf_counter()
    del hog
    torch.cuda.empty_cache()
    torch.cuda.synchronize()
    release_ms = (time.perf_counter() - t0) * 1e3
    print(json.dumps({"hog_gib": hog_gib, "free_gib": free / 2**30, "first_peak_gib": first_peak / 2**30,
                      "ms": median_ms(model, inputs), "hog_ms": hog_ms, "release_ms": release_ms}))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        one_process(sys.argv[2], int(sys.argv[3]))
        return
    for path in sys.argv[1:]:
        print(f"{path}")
        print(f"  {'hog GiB':>8} {'free GiB':>9} {'1st peak GiB':>12} {'ms':>8} {'hog ms':>7} {'free ms':>8}")
        for hog in HOGS_GIB:
            r = fresh_process(__file__, path, hog)
            if isinstance(r, str):
                print(f"  {hog:>8} {r}")
                continue
            print(f"  {hog:>8} {r['free_gib']:9.1f} {r['first_peak_gib']:12.2f} {r['ms']:8.3f} {r['hog_ms']:7.1f} {r['release_ms']:8.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
