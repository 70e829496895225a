"""The sizing table of the built-in suite: eager time and peak memory of every problem's reference.

    python bench/suite_sizing.py [--out DIR] [FILE...]     (default: every problems/level*/*.py)

On the GPU, per problem: the model and inputs built as kforge builds them (seed 42 for the model,
inputs created on the device, fp32 tensors cast to the problem's declared `precision`), two
warm-up calls, then timed calls with a cold L2 (a 2 x L2 buffer zeroed before each), one CUDA
event pair per call, until 10 calls or 1 s; the median is reported. Peak memory is the caching
allocator's peak over the whole problem. The sizing rule (docs/suite.md) is 1-15 ms for levels 1
and 2, at most 50 ms for levels 3 and 5, and a peak under 16 GB.

Writes suite-sizing.jsonl, suite-sizing.txt and suite-sizing.md (the table of docs/suite.md) to
--out and prints the table.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import statistics
import sys
import time
import traceback

import torch

WINDOW = {1: (1.0, 15.0), 2: (1.0, 15.0), 3: (0.0, 50.0), 5: (0.0, 50.0)}
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def load(path):
    spec = importlib.util.spec_from_file_location("problem_" + re.sub(r"\W", "_", path), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cast(t, dtype):
    if isinstance(t, torch.Tensor) and t.dtype in (torch.float32, torch.float64):
        return t.to(dtype)
    return t


def measure(path, flush):
    m = load(path)
    dtype = DTYPES[getattr(m, "precision", "fp32")]
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    with torch.device("cuda"):
        torch.manual_seed(42)
        model = m.Model(*m.get_init_inputs())
        model._apply(lambda t: cast(t, dtype))
        torch.manual_seed(1)
        inputs = [cast(x, dtype) for x in m.get_inputs()]
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    t0 = time.perf_counter()
    with torch.no_grad():
        for i in range(12):
            flush.zero_()
            torch.cuda.synchronize()
            start.record()
            model(*inputs)
            stop.record()
            torch.cuda.synchronize()
            if i >= 2:
                times.append(start.elapsed_time(stop))
            if time.perf_counter() - t0 > 1.0 and len(times) >= 3:
                break
    peak = torch.cuda.max_memory_allocated() / 1e9
    del model, inputs
    return statistics.median(times), len(times), peak, getattr(m, "precision", "fp32")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = args.files or sorted(glob.glob(os.path.join(root, "problems", "level*", "*.py")),
                                 key=lambda p: (p.split(os.sep)[-2], int(os.path.basename(p).split("_")[0])))
    os.makedirs(args.out, exist_ok=True)
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
    rows = []
    with open(os.path.join(args.out, "suite-sizing.jsonl"), "w") as jsonl, \
         open(os.path.join(args.out, "suite-sizing.txt"), "w") as txt:
        def say(line):
            print(line, flush=True)
            txt.write(line + "\n")
        say(f"suite sizing on {torch.cuda.get_device_name(0)}, torch {torch.__version__}: eager reference, "
            "cold L2, median of up to 10 calls")
        say(f"{'problem':<62} {'prec':>5} {'eager ms':>9} {'calls':>5} {'peak GB':>8}  sizing")
        for path in files:
            level = int(re.search(r"level(\d+)", path).group(1))
            name = f"level{level}/{os.path.basename(path)[:-3]}"
            row = {"problem": name}
            try:
                ms, calls, peak, prec = measure(path, flush)
                lo, hi = WINDOW.get(level, (0.0, 50.0))
                notes = []
                if ms < lo:
                    notes.append(f"under {lo:g} ms")
                if ms > hi:
                    notes.append(f"over {hi:g} ms")
                if peak > 16:
                    notes.append("peak over 16 GB")
                row.update(eager_ms=ms, calls=calls, peak_gb=peak, precision=prec, outside=notes)
                say(f"{name:<62} {prec:>5} {ms:>9.3f} {calls:>5} {peak:>8.2f}  {'ok' if not notes else ', '.join(notes)}")
            except Exception as e:  # noqa: BLE001 (report it and go on with the rest)
                row["error"] = f"{type(e).__name__}: {e}"
                say(f"{name:<62} ERROR {row['error'][:150]}")
                traceback.print_exc(file=sys.stderr)
            torch.cuda.empty_cache()
            rows.append(row)
            jsonl.write(json.dumps(row) + "\n")
        bad = [r for r in rows if r.get("error") or r.get("outside")]
        say(f"{len(rows)} problems, {len(rows) - len(bad)} inside the sizing rule, {len(bad)} outside or failing")
    with open(os.path.join(args.out, "suite-sizing.md"), "w") as md:
        md.write("| problem | precision | eager ms | peak GB | sizing rule |\n| --- | --- | ---: | ---: | --- |\n")
        for r in rows:
            if r.get("error"):
                md.write(f"| {r['problem']} | | | | error: {r['error'][:80]} |\n")
            else:
                md.write(f"| {r['problem']} | {r['precision']} | {r['eager_ms']:.3f} | {r['peak_gb']:.2f} | "
                         f"{', '.join(r['outside']) or 'ok'} |\n")


if __name__ == "__main__":
    main()
