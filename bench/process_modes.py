"""Whether a problem's forward runs at one speed in every process, outside kforge.

Issue 18's identity test puts the reference and the candidate in processes of their own. For a
few level-3 problems (the LSTM, the MoE) the identity speedup landed up to 35% from 1.00, on
either side, from run to run, with a tight interval inside each run. This starts PROCESSES fresh
Python processes per problem, each timing two instances of the plain model in turn (no kforge:
CUDA events around each call, synchronised, after a warm-up) and printing their medians, so a
spread between processes shows whether torch itself runs the problem at different speeds in
different processes, and a spread between the two instances whether it is the memory they got.
Each process also times one tiny CPU op (torch's dispatch alone) and names its CPU, so a slow
process can be told to be slow on the host in general.

With --why, each process also says where its time went, to find what differs between a fast
process and a slow one: the forward's kernels (torch.profiler: name, calls, GPU time), the first
instance timed again on inputs moved to fresh memory, and a third instance made after a held
allocation of an odd size has moved everything the allocator hands out next. The parent then
names the kernels whose time differs most between the fastest and the slowest process, and
whether the two ran the same kernels at all.

With --no-aslr, each process starts with address-space randomisation off (setarch -R), so every
process lays out its libraries, heap and stacks alike: a spread that survives it is not the
layout's.

A problem given as PROBLEM.py:NAME=VALUE,... runs with those module constants instead of its own
(as kforge's extra sizes set them), e.g. a problem at the size it had before it was resized.

Usage: python3 bench/process_modes.py PROBLEM.py[:NAME=VALUE,...]... [--processes 6] [--calls 40] [--why] [--no-aslr]
"""
import argparse
import json
import platform
import statistics
import subprocess
import sys

CHILD = r"""
import importlib.util, json, statistics, sys, time, torch
spec = importlib.util.spec_from_file_location("problem", sys.argv[1])
problem = importlib.util.module_from_spec(spec)
spec.loader.exec_module(problem)
for name, value in json.loads(sys.argv[4]).items():  # the sizes asked for, over the file's own
    setattr(problem, name, value)
torch.manual_seed(0)
calls = int(sys.argv[2])


def call_ms(model, args):  # one forward, synchronised, timed by CUDA events [ms]
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    model(*args)
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop)


def median_of(models, args):  # each model's median over `calls` forwards after 5, called in turn
    times = [[] for _ in models]
    with torch.no_grad():
        for i in range(5 + calls):
            for which, model in enumerate(models):
                ms = call_ms(model, args)
                if i >= 5:
                    times[which].append(ms)
    return [statistics.median(t) for t in times]


def fresh(tensors):
    return [t.clone() if isinstance(t, torch.Tensor) else t for t in tensors]


# Two instances, made one after the other and timed call by call in turn: a spread between them
# inside one process points at where their memory lies, a spread between processes at the process.
models = [problem.Model(*problem.get_init_inputs()).cuda().eval() for _ in range(2)]
inputs = [t.cuda() if isinstance(t, torch.Tensor) else t for t in problem.get_inputs()]
result = {"medians_ms": median_of(models, inputs)}
# The process's host speed on its own: one tiny CPU op (torch's dispatch, no GPU), microseconds per
# call, and the CPU the process runs on; a slow forward with a slow host op points at the process's
# host speed in general, not at the launches' path alone.
tiny = torch.ones(4)
host = []
for _ in range(7):
    t0 = time.perf_counter()
    for _ in range(2000):
        torch.add(tiny, 1)
    host.append((time.perf_counter() - t0) / 2000 * 1e6)
result["host_op_us"] = statistics.median(host)
result["cpu"] = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[36])


if sys.argv[3] == "why":
    from torch.profiler import profile, ProfilerActivity
    with torch.no_grad(), profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(3):
            models[0](*inputs)
        torch.cuda.synchronize()
    kernels = {}
    for event in prof.key_averages():
        us = getattr(event, "self_device_time_total", None) or getattr(event, "self_cuda_time_total", 0)
        if us > 0:
            kernels[event.key] = [event.count / 3, us / 3 / 1000.0]
    result["kernels"] = kernels  # name -> [calls per forward, ms per forward]
    result["cudnn"] = torch.backends.cudnn.version()
    result["moved_inputs_ms"] = median_of([models[0]], fresh(inputs))[0]
    # Emptied first, so the library workspaces (cuDNN's, cuBLAS's) the process reuses are allocated
    # again, elsewhere: the instances share those, and they agree with each other in every process.
    torch.cuda.empty_cache()
    hold = torch.empty(1024 ** 3 + 12345 * 512, dtype=torch.uint8, device="cuda")
    third = problem.Model(*problem.get_init_inputs()).cuda().eval()
    result["after_hold_ms"] = median_of([third], fresh(inputs))[0]
    result["first_again_ms"] = median_of([models[0]], inputs)[0]
print(json.dumps(result))
"""


def explain(name, results):
    """Per process: where its time went; then what differs between the fastest and the slowest."""
    for i, r in enumerate(results):
        print(f"  {name} process {i + 1}: instances {r['medians_ms'][0]:.2f}/{r['medians_ms'][1]:.2f} ms, "
              f"inputs moved {r['moved_inputs_ms']:.2f}, a third after a held odd allocation {r['after_hold_ms']:.2f}, "
              f"the first again {r['first_again_ms']:.2f}; profiled kernels {sum(v[1] for v in r['kernels'].values()):.2f} ms "
              f"over {sum(v[0] for v in r['kernels'].values()):.0f} launches, {len(r['kernels'])} distinct (cuDNN {r['cudnn']})")
    fast = min(results, key=lambda r: r["medians_ms"][0])
    slow = max(results, key=lambda r: r["medians_ms"][0])
    only_fast = sorted(set(fast["kernels"]) - set(slow["kernels"]))
    only_slow = sorted(set(slow["kernels"]) - set(fast["kernels"]))
    print(f"  {name}: fastest {fast['medians_ms'][0]:.2f} ms, slowest {slow['medians_ms'][0]:.2f} ms; "
          f"kernels only in the fastest {len(only_fast)}, only in the slowest {len(only_slow)}")
    for label, names, side in (("only fast", only_fast, fast), ("only slow", only_slow, slow)):
        for k in names[:4]:
            print(f"    {label}: {side['kernels'][k][0]:.0f} calls {side['kernels'][k][1]:.3f} ms  {k[:110]}")
    shared = set(fast["kernels"]) & set(slow["kernels"])
    gaps = sorted(shared, key=lambda k: abs(slow["kernels"][k][1] - fast["kernels"][k][1]), reverse=True)
    for k in gaps[:5]:
        f, s = fast["kernels"][k], slow["kernels"][k]
        print(f"    shared: fast {f[0]:.0f} calls {f[1]:.3f} ms, slow {s[0]:.0f} calls {s[1]:.3f} ms  {k[:110]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--processes", type=int, default=6)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--why", action="store_true", help="profile each process's kernels and move its memory")
    parser.add_argument("--no-aslr", action="store_true", help="start each process without address-space randomisation")
    args = parser.parse_args()
    layout = ", address-space randomisation off" if args.no_aslr else ""
    prefix = ["setarch", platform.machine(), "-R"] if args.no_aslr else []
    print(f"forward time per fresh process (median of {args.calls} calls, CUDA events, synchronised{layout})")
    print(f"{'problem':<40} {'per process: instance 1 / instance 2, ms':<72} {'max/min':>8}")
    for given in args.problems:
        path, _, overrides = given.partition(":")
        sizes = {name: int(value) for name, value in (o.split("=", 1) for o in overrides.split(",") if o)}
        medians, results = [], []
        for _ in range(args.processes):
            out = subprocess.run(prefix + [sys.executable, "-c", CHILD, path, str(args.calls), "why" if args.why else "plain",
                                           json.dumps(sizes)], capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{path}: a process failed: {out.stderr.strip()[-300:]}")
                break
            results.append(json.loads(out.stdout.strip().splitlines()[-1]))
            medians.append(results[-1]["medians_ms"])
        if medians:
            name = "/".join(path.split("/")[-2:])[:40]
            if sizes:  # level3/30 at BATCH=64,...: the row may run past its column
                name = f"{name.split('_')[0]} at {overrides}"
            shown = " ".join(f"{a:.2f}/{b:.2f}" for a, b in medians)
            every = [m for pair in medians for m in pair]
            print(f"{name:<40} {shown:<72} {max(every) / min(every):>8.3f}", flush=True)
            hosts = " ".join(f"{r['host_op_us']:.2f}@cpu{r['cpu']}" for r in results)
            print(f"{'  the same processes: host op us @ CPU':<40} {hosts}", flush=True)
            if args.why and len(results) == args.processes:
                explain(name, results)


if __name__ == "__main__":
    main()
