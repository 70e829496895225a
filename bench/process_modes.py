"""Whether a problem's forward runs at one speed in every process, outside kforge.

Issue 18's identity test puts the reference and the candidate in processes of their own. For a
few level-3 problems (the LSTM, the MoE) the identity speedup landed up to 35% from 1.00, on
either side, from run to run, with a tight interval inside each run. This starts PROCESSES fresh
Python processes per problem, each timing two instances of the plain model in turn (no kforge:
CUDA events around each call, synchronised, after a warm-up) and printing their medians, so a
spread between processes shows whether torch itself runs the problem at different speeds in
different processes, and a spread between the two instances whether it is the memory they got.

Usage: python3 bench/process_modes.py PROBLEM.py... [--processes 6] [--calls 40]
"""
import argparse
import json
import statistics
import subprocess
import sys

CHILD = r"""
import importlib.util, json, statistics, sys, torch
spec = importlib.util.spec_from_file_location("problem", sys.argv[1])
problem = importlib.util.module_from_spec(spec)
spec.loader.exec_module(problem)
torch.manual_seed(0)
# Two instances, made one after the other and timed call by call in turn: a spread between them
# inside one process points at where their memory lies, a spread between processes at the process.
models = [problem.Model(*problem.get_init_inputs()).cuda().eval() for _ in range(2)]
inputs = [t.cuda() if isinstance(t, torch.Tensor) else t for t in problem.get_inputs()]
times = [[], []]
with torch.no_grad():
    for i in range(5 + int(sys.argv[2])):
        for which, model in enumerate(models):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda.synchronize()
            start.record()
            model(*inputs)
            stop.record()
            torch.cuda.synchronize()
            if i >= 5:
                times[which].append(start.elapsed_time(stop))
print(json.dumps({"medians_ms": [statistics.median(t) for t in times]}))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--processes", type=int, default=6)
    parser.add_argument("--calls", type=int, default=40)
    args = parser.parse_args()
    print(f"forward time per fresh process (median of {args.calls} calls, CUDA events, synchronised)")
    print(f"{'problem':<40} {'per process: instance 1 / instance 2, ms':<72} {'max/min':>8}")
    for path in args.problems:
        medians = []
        for _ in range(args.processes):
            out = subprocess.run([sys.executable, "-c", CHILD, path, str(args.calls)], capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{path}: a process failed: {out.stderr.strip()[-300:]}")
                break
            medians.append(json.loads(out.stdout.strip().splitlines()[-1])["medians_ms"])
        if medians:
            name = "/".join(path.split("/")[-2:])[:40]
            shown = " ".join(f"{a:.2f}/{b:.2f}" for a, b in medians)
            every = [m for pair in medians for m in pair]
            print(f"{name:<40} {shown:<72} {max(every) / min(every):>8.3f}")


if __name__ == "__main__":
    main()
