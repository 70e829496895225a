"""Quick sanity check of KernelBench-format problem files, for people writing problems.

    python tools/problem_sanity.py problems/level1/*.py

Per file, without a GPU:
  * an estimate at the file's own (GPU) sizes, on PyTorch's meta device (no memory used): FLOPs
    of matmuls and convolutions (FlopCounterMode), bytes of inputs + parameters + outputs, and
    the eager time those imply on an H200 at rough achievable rates (fp32 GEMM without TF32
    ~40 TFLOP/s, convolutions (cuDNN allows TF32 by default) ~120 TFLOP/s, HBM ~3.5 TB/s). The
    real eager time is usually higher (intermediates make extra passes over memory);
  * a run on the CPU at the sizes `cpu_sizes` declares: output finite, deterministic for one seed,
    different for another seed, and not degenerate by METR's filters (REFERENCE.md section 1) with
    kforge's fp32 tolerance (1e-4) as the atol;
  * static rules: no random call inside forward, no device or dtype chosen in the file.

This is a writing aid with a meta-device time estimate; the suite's lint is `kforge problems lint`
(python/kforge_lint.py), which tests hold the suite to.
"""
import argparse
import ast
import importlib.util
import math
import sys
import time

import torch
from torch.utils.flop_counter import FlopCounterMode

RANDOM_CALLS = {"rand", "randn", "randint", "randperm", "normal", "bernoulli", "multinomial", "rand_like",
                "randn_like", "randint_like", "dropout", "normal_", "uniform_", "bernoulli_"}
GEMM_RATE, CONV_RATE, HBM_RATE = 40e12, 120e12, 3.5e12


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def static_problems(path):
    found = []
    tree = ast.parse(open(path).read())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "forward":
            for call in ast.walk(node):
                if isinstance(call, ast.Call):
                    f = call.func
                    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                    if name in RANDOM_CALLS:
                        found.append(f"random call {name}() inside forward")
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in ("cuda", "half", "bfloat16", "double"):
                found.append(f".{name}() call: the harness chooses device and precision")
            for kw in node.keywords:
                if kw.arg == "device":
                    found.append("device= argument: the harness chooses the device")
                if kw.arg == "dtype" and not (isinstance(kw.value, ast.Attribute) and kw.value.attr in
                                              ("long", "int64", "int32", "int", "bool", "uint8", "int8")):
                    found.append("floating dtype= argument: the harness chooses the precision")
    return found


def tensors_of(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for item in x for t in tensors_of(item)]
    return []


def estimate(path):
    m = load(path, "problem_meta")
    with torch.device("meta"):
        torch.manual_seed(42)
        model = m.Model(*m.get_init_inputs())
        inputs = m.get_inputs()
        counter = FlopCounterMode(display=False)
        with torch.no_grad(), counter:
            out = model(*inputs)
    flops = counter.get_total_flops()
    per_op = counter.get_flop_counts().get("Global", {})
    conv_flops = sum(v for k, v in per_op.items() if "convolution" in str(k))
    bytes_in = sum(t.numel() * t.element_size() for t in tensors_of(inputs))
    bytes_param = sum(p.numel() * p.element_size() for p in model.parameters())
    bytes_param += sum(b.numel() * b.element_size() for b in model.buffers())
    bytes_out = sum(t.numel() * t.element_size() for t in tensors_of(out))
    moved = bytes_in + bytes_param + bytes_out
    ms = 1e3 * max((flops - conv_flops) / GEMM_RATE + conv_flops / CONV_RATE, moved / HBM_RATE)
    return flops, moved, ms


def cpu_run(path, seed):
    m = load(path, "problem_cpu")
    for key, value in getattr(m, "cpu_sizes", {}).items():
        if not hasattr(m, key):
            raise ValueError(f"cpu_sizes names {key}, which the file does not define")
        setattr(m, key, value)
    torch.manual_seed(42)
    model = m.Model(*m.get_init_inputs())
    torch.manual_seed(seed)
    inputs = m.get_inputs()
    for i, x in enumerate(inputs):
        if not isinstance(x, (torch.Tensor, int, float, bool)):
            raise ValueError(f"get_inputs()[{i}] is a {type(x).__name__}")
    t0 = time.perf_counter()
    with torch.no_grad():
        out = model(*inputs)
    return [t.detach().double() for t in tensors_of(out)], time.perf_counter() - t0


def degenerate(outs, other, atol=1e-4):
    why = []
    for o, p in zip(outs, other):
        flat = o.flatten()
        n = flat.numel()
        if n == 0:
            why.append("empty output")
            continue
        if (flat.abs() <= atol).double().mean() > 0.7:
            why.append(f"{100 * (flat.abs() <= atol).double().mean():.0f}% of values within {atol} of 0")
        if n > 100 and ((flat - flat.mean()).abs() <= atol).double().mean() > 0.7:
            why.append("over 70% of values within atol of the mean")
        if p.shape == o.shape and ((o - p).abs() <= atol).double().mean() > 0.95:
            why.append("over 95% of values unchanged for another seed")
    return why


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    torch.set_num_threads(max(1, torch.get_num_threads()))
    failed = 0
    print(f"{'problem':<48} {'GFLOP':>9} {'MB moved':>9} {'est ms':>7} {'cpu s':>6}  verdict")
    for path in args.files:
        problems = static_problems(path)
        try:
            flops, moved, ms = estimate(path)
            est = f"{flops / 1e9:>9.1f} {moved / 1e6:>9.1f} {ms:>7.2f}"
        except Exception as e:  # noqa: BLE001 (report and go on)
            est = f"{'meta device failed: ' + type(e).__name__:>27}"
        try:
            a, seconds = cpu_run(path, 1)
            b, _ = cpu_run(path, 1)
            c, _ = cpu_run(path, 2)
            if not a:
                problems.append("forward returned no tensor")
            for x, y in zip(a, b):
                if not torch.isfinite(x).all():
                    problems.append("non-finite values in the output")
                if x.shape != y.shape or not torch.equal(x, y):
                    problems.append("not deterministic: two runs with one seed differ")
            problems += degenerate(a, c)
            cpu = f"{seconds:>6.2f}"
            if seconds > 1.0:
                problems.append(f"CPU forward at cpu_sizes took {seconds:.1f} s (aim for under 0.3 s)")
        except Exception as e:  # noqa: BLE001
            cpu = f"{'-':>6}"
            problems.append(f"CPU run failed: {type(e).__name__}: {e}")
        verdict = "ok" if not problems else "; ".join(dict.fromkeys(problems))
        failed += bool(problems)
        print(f"{path:<48} {est} {cpu}  {verdict}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
