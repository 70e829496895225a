"""Is a problem's per-process speed a property of the process or of where its tensors lie?

Across the process boundary some problems' identities draw a speed per process: on the H100 of
session 48, level1/66 ran about 4% slower in 2 of 12 fresh processes (the twin's once, the
candidate's once) and at one speed in the other ten. Two explanations predict different things
inside one process. If the placement of the tensors (which physical pages, at which offsets from
one another) sets the speed, a process that times the same forward on several independently
allocated sets of inputs and outputs sees the sets run at different speeds, the slow speed among
them about as often as processes drew it. If the process itself draws it (its context, its
streams), every set of one process runs at one speed.

Each fresh process (exec'd, one at a time) builds the model and SETS input sets, each its own
allocations kept alive, and each set's output kept until that set's next call, so the caching
allocator gives every set a block of its own for its output (the set's old output is freed just
before its call, the only free block of that size). It then times ROUNDS rounds of one forward
per set, round-robin, so drift touches every set alike, and reports each set's median.
Usage: python bench/placement_probe.py PROBLEM.py [PROCESSES [SETS [ROUNDS]]]   (needs a CUDA device)
"""
import os
import statistics
import sys

import torch
import torch.multiprocessing as mp

# kforge's own problem loader (python/kforge_problem.py); at the top level, so a spawned child,
# which imports this file again, finds it too.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import kforge_problem  # noqa: E402


def child(path, sets, rounds, results):
    problem = kforge_problem.load(path)
    torch.manual_seed(0)
    model = problem.Model(*problem.get_init_inputs()).cuda()
    input_sets = []
    for s in range(sets):
        torch.manual_seed(1 + s)
        input_sets.append([x.cuda() if isinstance(x, torch.Tensor) else x for x in problem.get_inputs()])
    outputs = [None] * sets
    times = [[] for _ in range(sets)]
    with torch.no_grad():
        for r in range(rounds + 2):  # two untimed rounds first
            for s in range(sets):
                outputs[s] = None  # its old block is the one free block of its size
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                outputs[s] = model(*input_sets[s])
                b.record()
                b.synchronize()
                if r >= 2:
                    times[s].append(a.elapsed_time(b))
    first_tensor = [next(x for x in xs if isinstance(x, torch.Tensor)).data_ptr() for xs in input_sets]
    output_ptr = [o.data_ptr() if isinstance(o, torch.Tensor) else 0 for o in outputs]
    results.put(([statistics.median(t) for t in times], first_tensor, output_ptr))


def spread(values):
    return 100 * (max(values) / min(values) - 1)


def main():
    path = sys.argv[1]
    processes = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    sets = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    print(f"{path}: {processes} fresh processes, {sets} input and output sets each, {rounds} rounds", flush=True)
    process_medians, within = [], []
    all_sets = []
    for i in range(processes):
        p = ctx.Process(target=child, args=(path, sets, rounds, queue))
        p.start()
        p.join()
        if p.exitcode != 0:
            print(f"  process {i} ended with {p.exitcode}", flush=True)
            continue
        medians, inputs, outputs = queue.get()
        process_medians.append(statistics.median(medians))
        within.append(spread(medians))
        all_sets.extend(medians)
        base = min(medians)
        line = " ".join(f"{100 * (m / base - 1):5.2f}" for m in medians)
        print(f"  process {i}: fastest set {base:.4f} ms; each set's % over it: {line}"
              f"  (inputs from {min(inputs):#x}, outputs from {min(outputs):#x})", flush=True)
    if len(process_medians) < 2:
        return
    fastest = min(all_sets)
    print(f"every set over the fastest, sorted (%): "
          + " ".join(f"{100 * (m / fastest - 1):.2f}" for m in sorted(all_sets)))
    print(f"processes' medians: range {spread(process_medians):.2f}%  sd "
          f"{100 * statistics.stdev(process_medians) / statistics.mean(process_medians):.2f}%")
    print(f"sets within a process: median range {statistics.median(within):.2f}%, largest {max(within):.2f}%")


if __name__ == "__main__":
    main()
