"""`kforge baseline`: the reference's own time, eager and under torch.compile, as upstream stores it.

Run by kforge with the worker's Python: kforge_baseline.py --device cpu|cuda --trials N --modes M,... PATH...
One JSON object per problem and mode on stdout: {"problem": PATH, "mode": M, "mean", "std", "min",
"max", "median" (ms), "num_trials", "hardware", "device", "torch", "error"}. Modes: `eager`, `compile`
(torch.compile's default), `max-autotune` (mode="max-autotune-no-cudagraphs"). Per problem: seed
42, the model in its declared precision (kforge's cast), one input set (seed 1) at the sizes kforge
uses (`cpu_sizes` on the CPU); 3 warm-up calls (compilation happens there), then N timed calls. A
training problem's call (`mode = "train"`) is its step, forward and backward (kforge_train.py).
On a GPU each timed call is upstream's: synchronize, flush the L2 (a buffer of twice its size is
written), a CUDA event before and after forward, synchronize. On the CPU, the host clock.
"""
import argparse
import json
import statistics
import sys
import time

import torch

from kforge_problem import DTYPES, cast, cast_model, error_text, load
from kforge_train import is_training_problem, step_for, with_grad_outputs

MODES = {"eager": None, "compile": {}, "max-autotune": {"mode": "max-autotune-no-cudagraphs"}}


def timed_calls(call, trials, cuda):
    times = []
    if cuda:
        flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.uint8, device="cuda")
        for _ in range(trials):
            torch.cuda.synchronize()
            flush.zero_()
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            call()
            stop.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(stop))
    else:
        for _ in range(trials):
            t0 = time.perf_counter()
            call()
            times.append((time.perf_counter() - t0) * 1e3)
    return times


def baseline(path, mode, device, trials):
    cuda = device == "cuda"
    hardware = torch.cuda.get_device_name(0) if cuda else "cpu"
    out = {"problem": path, "mode": mode, "num_trials": trials, "hardware": hardware, "device": device,
           "torch": torch.__version__, "error": None}
    try:
        m = load(path, cpu=not cuda)
        dtype = DTYPES.get(getattr(m, "precision", "fp32"), torch.float32)
        with torch.device(device):
            torch.manual_seed(42)
            model = cast_model(m.Model(*[cast(a, dtype) for a in m.get_init_inputs()]), dtype)  # train mode, as evaluated
            torch.manual_seed(1)
            inputs = [cast(a, dtype) for a in m.get_inputs()]
        if is_training_problem(m):
            # A training problem's call is its step: forward and backward (kforge_train.py), the
            # compiled modes' backward through AOTAutograd.
            step = step_for(m, model, inputs)
            inputs = with_grad_outputs(model, inputs, 1)
            if MODES[mode] is not None:
                torch._dynamo.reset()
                step.model = torch.compile(model, **MODES[mode])
            model = step
        elif MODES[mode] is not None:
            torch._dynamo.reset()
            model = torch.compile(model, **MODES[mode])
        with torch.no_grad():
            for _ in range(3):
                model(*inputs)
            times = timed_calls(lambda: model(*inputs), trials, cuda)
        out.update({"mean": statistics.fmean(times), "std": statistics.pstdev(times), "min": min(times),
                    "max": max(times), "median": statistics.median(times)})
        del model, inputs
    except Exception as e:  # noqa: BLE001 (reported per problem and mode; the others go on)
        out["error"] = error_text(e)
    if cuda:
        torch.cuda.empty_cache()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--modes", default="eager,compile,max-autotune")
    ap.add_argument("problems", nargs="+")
    args = ap.parse_args()
    modes = args.modes.split(",")
    for mode in modes:
        if mode not in MODES:
            print(f"unknown mode {mode}", file=sys.stderr)
            return 2
    for path in args.problems:
        for mode in modes:
            print(json.dumps(baseline(path, mode, args.device, args.trials)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
