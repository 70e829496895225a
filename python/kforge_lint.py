"""`kforge problems lint`: checks that a problem file is a sound benchmark (docs/suite.md).

Run by kforge with the worker's Python: kforge_lint.py --device cpu|cuda [--static-only] LEVEL:PATH...
One JSON object per problem on stdout: {"problem": PATH, "findings": [{"rule", "message"}],
"eager_ms": MS or null, "peak_gib": GIB or null}, and "note" where it was linted otherwise than
asked (a multi-rank problem on fewer GPUs than its ranks: on the CPU).

Static rules read the file: no random call inside forward (`random-in-forward`), no device or
floating dtype chosen in the file (`device-in-file`, `dtype-in-file`). Run rules build the model
(seed 42) and call forward at the sizes kforge would use (`cpu_sizes` on the CPU), in the
problem's precision, with the METR and robust-kbench filters at kforge's tolerance for that
precision: `non-finite`, `nondeterministic` (one seed, two runs differ), `random-in-forward`
(the output depends on the RNG state at the call), `near-zero`, `near-constant`,
`input-independent` (other inputs, same output), `weight-independent` (other weights, same
outputs: every output). `extra-sizes`: the file declares no `extra_sizes` and `cpu_extra_sizes`
(static), or one of them (the list for the device linted) is unusable: it names a constant the
file lacks or `get_init_inputs()` reads, changes no input's shape, or the reference fails or gives
non-finite values at it. On the CPU, the GPU list is also run on PyTorch's meta device (shapes
only, no data), so a size that no op accepts is found without a GPU. The model is built as the evaluation builds it, in train mode. On a
GPU also `sizing` (eager time outside the level's window, upstream's rule: 1-15 ms
for levels 1 and 2 and the training level 6, up to 50 ms for 3 and 5), `memory` (peak over 60 GiB: the suite must run on an
80 GB card) and `host-bound` (queueing a call takes more host time than 0.9 of its GPU time, or it
waits for the GPU while being queued: the call is timed by the host, not its kernels). On any device, an allocation that fails is a `memory` finding too (the problem does
not fit), and any other exception a `load` one.
"""
import argparse
import ast
import json
import os
import sys
import time

import torch

from kforge_problem import DTYPES, cast, cast_model, error_text, is_out_of_memory, load, tensors_of
from kforge_ranks import run_ranks, world_size_of
from kforge_train import is_training_problem, step_for, trainable_parameters, with_grad_outputs

RANDOM_CALLS = {"rand", "randn", "randint", "randperm", "normal", "bernoulli", "multinomial", "rand_like",
                "randn_like", "randint_like", "dropout", "normal_", "uniform_", "bernoulli_", "exponential_"}
INTEGER_DTYPES = {"long", "int64", "int32", "int16", "int", "bool", "uint8", "int8"}
TOLERANCE = {"fp32": 1e-4, "fp16": 1e-2, "bf16": 1e-2}
# What the evaluation admits of a gradient (src/core/tolerances.hpp, where the reasons are; a unit
# test holds these to it): summation-order noise as a share of its largest |value|, and its error
# as a whole as a share of its norm.
GRADIENT_ORDER_NOISE = {"fp32": 2.0 ** -14, "fp16": 2.0 ** -6, "bf16": 2.0 ** -6}
GRADIENT_NORM_ERROR = {"fp32": 2.0 ** -12, "fp16": 2.0 ** -6, "bf16": 2.0 ** -6}
PEAK_GIB_LIMIT = 60.0
# The most host time queueing a call may take as a share of its GPU time (the `host-bound` rule).
# On the H200 (docs/benchmarks.md, session 22) the level-6 steps at 0.64-0.88 had identities
# within 0.5% of 1.00 and those at 1.16 and 1.23 did not.
HOST_SHARE_LIMIT = 0.9


def call_name(call):
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")


def static_findings(source):
    found = []
    tree = ast.parse(source)
    declared = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)}
    for name in ("extra_sizes", "cpu_extra_sizes"):
        if name not in declared:
            found.append(("extra-sizes", f"no {name}: other sizes a correct candidate must handle (docs/suite.md)"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "forward":
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and call_name(call) in RANDOM_CALLS:
                    found.append(("random-in-forward", f"line {call.lineno}: {call_name(call)}() inside forward"))
        if isinstance(node, ast.Call):
            name = call_name(node)
            if name == "cuda":
                found.append(("device-in-file", f"line {node.lineno}: .cuda(): kforge chooses the device"))
            if name in ("half", "bfloat16", "double"):
                found.append(("dtype-in-file", f"line {node.lineno}: .{name}(): kforge chooses the precision"))
            for kw in node.keywords:
                if kw.arg == "device":
                    found.append(("device-in-file", f"line {node.lineno}: device= argument: kforge chooses the device"))
                if kw.arg == "dtype" and not (isinstance(kw.value, ast.Attribute) and kw.value.attr in INTEGER_DTYPES):
                    found.append(("dtype-in-file",
                                  f"line {node.lineno}: floating dtype= argument: kforge chooses the precision"))
    return found


class Runner:
    """Builds and runs a problem as the evaluation does. A training problem (`mode = "train"`) is run
    as its step (kforge_train.py): every rule then sees the gradients beside the outputs (a
    parameter no output depends on is a near-zero gradient), and the GPU figures time forward and
    backward."""

    def __init__(self, module, device, dtype, rank=None):
        self.m, self.device, self.dtype = module, device, dtype
        # A multi-rank problem's get_inputs(rank, world_size) (kforge_ranks.py).
        self.input_args = (rank.rank, rank.world_size) if rank else ()
        self.train = is_training_problem(module)
        self._shapes_model = None  # a training problem's plain model: its forward shapes the grad_outputs

    def plain_model(self, seed):
        with torch.device(self.device):
            torch.manual_seed(seed)
            init = [cast(a, self.dtype) for a in self.m.get_init_inputs()]
            torch.manual_seed(seed)
            model = self.m.Model(*init)
        return cast_model(model, self.dtype)  # train mode, as the evaluation (and upstream) builds it

    def plain_inputs(self, seed):
        with torch.device(self.device):
            torch.manual_seed(seed)
            return [cast(a, self.dtype) for a in self.m.get_inputs(*self.input_args)]

    def model(self, seed):
        model = self.plain_model(seed)
        if not self.train:
            return model
        try:
            return step_for(self.m, model, self.plain_inputs(1))
        except NotImplementedError:
            if self.device != "meta":
                raise
            return model  # an op without a meta kernel (nonzero): only the inputs' shapes are checked there

    def inputs(self, seed):
        inputs = self.plain_inputs(seed)
        if not self.train:
            return inputs
        if self._shapes_model is None:
            self._shapes_model = self.plain_model(42)
        try:
            return with_grad_outputs(self._shapes_model, inputs, seed)
        except NotImplementedError:
            if self.device != "meta":
                raise
            return inputs

    def roles(self, model, count):
        """(name, is a gradient) of each of `count` result tensors, for findings: a step's outputs,
        then its gradients."""
        if not self.train:
            return [(f"output {i}" if count > 1 else "the output", False) for i in range(count)]
        outputs = count - len(model.grad_inputs) - len(trainable_parameters(model.model))
        return [("the output" if label == "output" else label, i >= outputs)
                for i, label in enumerate(model.labels(outputs))]

    def run(self, model, inputs, rng_seed=0):
        torch.manual_seed(rng_seed)
        with torch.no_grad():
            out = model(*inputs)
        # Compared where they are: moving GB-sized outputs to the host in fp64 for every run made
        # the suite's GPU lint take minutes. Narrow floats widen to fp32 exactly; everything else
        # (fp64, integers: exact to 2^53) goes to fp64.
        narrow = (torch.float16, torch.bfloat16, torch.float32)
        return [t.detach().float() if t.dtype in narrow else t.detach().double() for t in tensors_of(out)]


def share_of(mask):
    """The share of True in a boolean tensor (an integer count: no fp64 copy of a GB-sized mask)."""
    return mask.sum().item() / max(mask.numel(), 1)


def unchanged_share(a, b, atol):
    if a.shape != b.shape:
        return 0.0
    return share_of((a - b).abs() <= atol)


def norm_share(error, a):
    """|error| as a share of |a| (2-norms; 0 for a zero `a`)."""
    whole = a.norm().item()
    return error.norm().item() / whole if whole > 0 else 0.0


def run_findings(runner, precision, cpu):
    atol = TOLERANCE[precision]
    found = []
    model = runner.model(42)
    inputs = runner.inputs(1)
    first = runner.run(model, inputs, 0)
    again = runner.run(model, inputs, 0)
    other_rng = runner.run(model, inputs, 12345)
    if not first:
        return [("no-output", "forward returned no tensor")]
    roles = runner.roles(model, len(first))
    names = [name for name, _ in roles]
    # A gradient is held to atol at its own scale, as the evaluation compares it (tensors.hpp's
    # ComparedTensor): its size is the loss's choice (a mean over many rows makes it small).
    tols = [atol * min(1.0, a.abs().max().item()) if gradient and a.numel() else atol
            for (_, gradient), a in zip(roles, first)]
    gradients = [gradient for _, gradient in roles]

    def passes_for(i, a, replacement_error):
        """Whether a result off `a` by `replacement_error` (where the elementwise rule let it
        through) would pass the evaluation's comparison as a whole: a gradient's error is also
        held to a share of its norm, which values under its elementwise tolerance can exceed."""
        return not gradients[i] or norm_share(replacement_error, a) <= GRADIENT_NORM_ERROR[precision]

    for i, (a, b, c) in enumerate(zip(first, again, other_rng)):
        what, atol_i = names[i], tols[i]
        if not torch.isfinite(a).all():
            found.append(("non-finite", f"{what} has NaN or Inf values"))
            continue
        scale = max(a.abs().max().item(), 1.0)
        # Two runs of a gradient may differ by its order noise (atomic reductions in attention's
        # and embedding's backward), with one RNG state or another: the comparison admits that
        # much, so the problem judges itself.
        same_run = 1e-6 * scale
        if gradients[i] and a.numel():
            same_run = max(same_run, GRADIENT_ORDER_NOISE[precision] * a.abs().max().item())
        if a.shape != b.shape or (a - b).abs().max().item() > same_run:
            found.append(("nondeterministic", f"{what}: two runs with one seed differ"))
        elif a.shape == c.shape and (a - c).abs().max().item() > same_run:
            found.append(("random-in-forward", f"{what} depends on the RNG state at the call"))
        n = a.numel()
        if n == 0:
            found.append(("near-zero", f"{what} is empty"))
            continue
        small = a.abs() <= atol_i
        zero = share_of(small)
        if zero > 0.7 and passes_for(i, a, torch.where(small, a, torch.zeros_like(a))):
            found.append(("near-zero", f"{what}: {100 * zero:.0f}% of values within {atol_i:g} of 0"))
        if n > 100:
            off_mean = a - a.mean()
            near_mean = off_mean.abs() <= atol_i
            flat = share_of(near_mean)
            if flat > 0.7 and passes_for(i, a, torch.where(near_mean, off_mean, torch.zeros_like(a))):
                found.append(("near-constant", f"{what}: {100 * flat:.0f}% of values within {atol_i:g} of the mean"))
    other_inputs = runner.run(model, runner.inputs(2), 0)
    for i, (a, b) in enumerate(zip(first, other_inputs)):
        share = unchanged_share(a, b, tols[i])
        if share > 0.95 and (a.shape != b.shape or passes_for(i, a, b - a)):
            found.append(("input-independent", f"{names[i]}: {100 * share:.0f}% of values unchanged for other inputs"))
    if any(p.is_floating_point() for p in model.parameters()):
        other_model = runner.model(43)
        other_weights = runner.run(other_model, inputs, 0)
        # Flagged when no output depends on the weights: a problem may return, beside its
        # weighted result, a pure function of its inputs (a fused residual add returns the new
        # residual stream), and that output is part of the workload, not a degenerate one.
        shares = [unchanged_share(a, b, tol) for a, b, tol in zip(first, other_weights, tols)]
        if shares and min(shares) > 0.95:
            for i, share in enumerate(shares):
                found.append(("weight-independent",
                              f"{names[i]}: {100 * share:.0f}% of values unchanged for other weights"))
        del other_model
    return found


class SizesApplied:
    """Module constants set for the span of a `with`, and put back after (as the evaluation sets
    an extra size for get_inputs() only)."""

    def __init__(self, module, sizes):
        self.m, self.sizes = module, sizes

    def __enter__(self):
        self.saved = {k: getattr(self.m, k) for k in self.sizes}
        for k, v in self.sizes.items():
            setattr(self.m, k, v)

    def __exit__(self, *exc):
        for k, v in self.saved.items():
            setattr(self.m, k, v)


def same_value(a, b):
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.shape == b.shape
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return a == b


def shapes_of(inputs):
    return [tuple(t.shape) if isinstance(t, torch.Tensor) else t for t in inputs]


def extra_size_findings(runner, name, run=True):
    """The problem's `name` list (extra_sizes or cpu_extra_sizes), each size checked as the
    evaluation uses it: set for get_inputs() only, the model built once at the benchmark size."""
    m = runner.m
    sizes_list = getattr(m, name, None)
    if sizes_list is None:
        return []
    if not isinstance(sizes_list, (list, tuple)) or not sizes_list:
        return [("extra-sizes", f"{name} must be a non-empty list of dicts")]
    found = []
    init = list(m.get_init_inputs())
    base_shapes = shapes_of(runner.inputs(1))
    model = runner.model(42) if run else None
    if run and runner.device == "meta":
        try:  # some ops have no meta kernel, or need the data: then only the shapes are checked
            runner.run(model, runner.inputs(1), 0)
        except Exception:  # noqa: BLE001
            run = False
    for sizes in sizes_list:
        label = f"{name} {sizes}"
        if not isinstance(sizes, dict) or not sizes:
            found.append(("extra-sizes", f"{label}: not a dict of constant name to number"))
            continue
        missing = [k for k in sizes if not hasattr(m, k)]
        if missing:
            found.append(("extra-sizes", f"{label}: names {', '.join(missing)}, which the file does not define"))
            continue
        try:
            with SizesApplied(m, sizes):
                changed_init = not same_value(list(m.get_init_inputs()), init)
                inputs = runner.inputs(7)
        except Exception as e:  # noqa: BLE001
            if is_out_of_memory(e):
                raise
            found.append(("extra-sizes", f"{label}: get_inputs() fails there: {error_text(e)}"))
            continue
        if changed_init:
            found.append(("extra-sizes", f"{label}: changes get_init_inputs(); only constants that shape the inputs belong"))
            continue
        if shapes_of(inputs) == base_shapes:
            found.append(("extra-sizes", f"{label}: no input changes shape"))
            continue
        if not run:
            continue
        try:
            outputs = runner.run(model, inputs, 0)
        except Exception as e:  # noqa: BLE001 (the size is unusable; the finding says why)
            if is_out_of_memory(e):
                raise
            found.append(("extra-sizes", f"{label}: the reference fails there: {error_text(e)}"))
            continue
        if runner.device != "meta" and not all(torch.isfinite(t).all() for t in outputs):
            found.append(("extra-sizes", f"{label}: the reference gives NaN or Inf there"))
    return found


def spin_cycles_per_ms():
    """How many cycles of torch.cuda._sleep's spin make a millisecond on this GPU."""
    cycles = 10_000_000
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    torch.cuda._sleep(cycles)
    stop.record()
    stop.synchronize()
    return cycles / max(start.elapsed_time(stop), 1e-3)


def queued_and_gpu_ms(model, inputs, cycles_per_ms):
    """One call queued behind a spin kernel that outlasts its queueing: (the host's time to queue it
    (Python, autograd, launches), the GPU's time to run it once queued), as kforge's held timing
    sees a call (docs/evaluation.md). None when the call waited for the GPU while queueing: a host
    synchronisation inside, or more launches than the launch queue holds (a full queue blocks the
    launching thread until the spin ends, as a sync would)."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    model(*inputs)
    torch.cuda.synchronize()
    spin_ms = 2 * (time.perf_counter() - t0) * 1e3 + 20
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(int(spin_ms * cycles_per_ms))
    start.record()  # in stream order: stamped when the spin ends and the queued call starts
    t0 = time.perf_counter()
    model(*inputs)
    queued_ms = (time.perf_counter() - t0) * 1e3
    stop.record()
    stop.synchronize()
    if queued_ms >= 0.9 * spin_ms:
        return None
    return queued_ms, start.elapsed_time(stop)


def host_bound_finding(model, inputs):
    """Every level: a call whose queueing takes more than HOST_SHARE_LIMIT of its GPU time, or that
    waits for the GPU while it is queued, is timed by its host, and host speed differs from process
    to process (up to 39% on the H200 for the same launches: docs/benchmarks.md, session 12; level 3's
    cuDNN RNNs up to 70% with the same kernels in every process, session 24), so neither an
    identity nor a kernel's speedup can be measured on it. Returns the findings and the share
    (host time queueing over GPU time; None where the call waited for the GPU), which the lint
    prints for every problem: a clean one near the limit is worth a closer look."""
    cycles = spin_cycles_per_ms()
    pairs = [queued_and_gpu_ms(model, inputs, cycles) for _ in range(3)]
    if any(p is None for p in pairs):
        return [("host-bound", "the call waits for the GPU while it is being queued (a host synchronisation: .item(), "
                               "a copy from pageable memory, nonzero; or more launches than the GPU's launch queue "
                               "holds, about a thousand): kforge's held timing cannot hold it, so the host's time is "
                               "in every timed call")], None
    queued = sorted(q for q, _ in pairs)[1]
    gpu = sorted(g for _, g in pairs)[1]
    share = queued / max(gpu, 1e-6)
    if queued <= HOST_SHARE_LIMIT * gpu:
        return [], share
    return [("host-bound", f"queueing a call takes {queued:.2f} ms of host time against {gpu:.2f} ms of GPU work "
                           f"(over {HOST_SHARE_LIMIT:g} of it): its timed calls would measure the host, not its kernels")], share


def gpu_figures(runner, level):
    """Eager time (median of 10 calls after 3) and peak memory at the problem's GPU sizes, the
    findings, and the host's share of the call's time (host_bound_finding)."""
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    model = runner.model(42)
    inputs = runner.inputs(1)
    with torch.no_grad():
        for _ in range(3):
            model(*inputs)
        times = []
        for _ in range(10):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            model(*inputs)
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        host_bound, host_share = host_bound_finding(model, inputs)
    ms = sorted(times)[len(times) // 2]
    peak = torch.cuda.max_memory_allocated() / 2**30
    found = []
    low, high = (1.0, 15.0) if level in (1, 2, 6, 7) else (1.0, 50.0)
    if not low <= ms <= high:
        found.append(("sizing", f"eager {ms:.2f} ms, outside level {level}'s window of {low:g}-{high:g} ms"))
    if peak > PEAK_GIB_LIMIT:
        found.append(("memory", f"peak {peak:.1f} GiB: over {PEAK_GIB_LIMIT:g} GiB, it does not fit an 80 GB card comfortably"))
    found += host_bound
    del model, inputs
    torch.cuda.empty_cache()
    return ms, peak, found, host_share


def run_rules(level, path, device, rank=None):
    """The rules that build and run the problem: (findings, eager ms, peak GiB, host share), the
    figures None on the CPU. `rank`: this process's place in a multi-rank problem's group (kforge_ranks.py)."""
    cpu = device == "cpu"
    module = load(path, cpu)
    findings = []
    precision = getattr(module, "precision", "fp32")
    if precision not in DTYPES:
        findings.append(("precision", f"declared precision {precision!r} is not one of fp32, fp16, bf16"))
        precision = "fp32"
    runner = Runner(module, device, DTYPES[precision], rank)
    findings += run_findings(runner, precision, cpu)
    findings += extra_size_findings(runner, "cpu_extra_sizes" if cpu else "extra_sizes")
    if cpu and rank is None:
        # The GPU sizes, on the meta device: shapes checked, nothing computed. (Not for a
        # multi-rank problem: collectives need data.)
        findings += extra_size_findings(Runner(load(path, False, "kforge_problem_meta"), "meta",
                                               DTYPES[precision]), "extra_sizes")
    if cpu:
        return findings, None, None, None
    ms, peak, more, share = gpu_figures(Runner(load(path, False), device, DTYPES[precision], rank), level)
    return findings + more, ms, peak, share


def rank_rules(rank, level, path, device):
    """run_rules on one rank of a multi-rank problem; its findings say which rank found them."""
    findings, ms, peak, share = run_rules(level, path, device, rank)
    return [(rule, f"rank {rank.rank}: {message}") for rule, message in findings], ms, peak, share


def lint(level, path, device, static_only):
    result = {"problem": path, "findings": [], "eager_ms": None, "peak_gib": None, "host_share": None}
    try:
        source = open(path, encoding="utf-8").read()
        findings = static_findings(source)
        if not static_only:
            ranks = world_size_of(load(path, device == "cpu", "kforge_problem_ranks"))
            if ranks > 1 and device == "cuda" and torch.cuda.device_count() < ranks:
                # Its ranks cannot each have a GPU here: the run rules on the CPU, over gloo, and
                # no GPU figures (a machine with enough GPUs sizes it).
                device = "cpu"
                result["note"] = (f"needs {ranks} GPUs, this machine has {torch.cuda.device_count()}: "
                                  "linted on the CPU, not sized")
            if ranks == 1:
                more, result["eager_ms"], result["peak_gib"], result["host_share"] = run_rules(level, path, device)
                findings += more
            else:
                # Every rank runs the rules (their collectives meet); the slowest rank's time is the
                # problem's, and a finding on any rank is the problem's.
                for more, ms, peak, share in run_ranks(ranks, device, rank_rules, (level, os.path.abspath(path), device)):
                    findings += more
                    if ms is not None:
                        result["eager_ms"] = max(result["eager_ms"] or 0.0, ms)
                        result["peak_gib"] = max(result["peak_gib"] or 0.0, peak)
                    if share is not None:
                        result["host_share"] = max(result["host_share"] or 0.0, share)
    except Exception as e:  # noqa: BLE001 (a broken problem is a finding, and the others still run)
        if is_out_of_memory(e):
            findings = [("memory", f"does not fit in the {device}'s memory: {error_text(e)}")]
        else:
            findings = [("load", f"{type(e).__name__}: {e}")]
    result["findings"] = [{"rule": r, "message": m} for r, m in dict.fromkeys(findings)]
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--static-only", action="store_true")
    ap.add_argument("problems", nargs="+", help="LEVEL:PATH")
    args = ap.parse_args()
    for entry in args.problems:
        level, path = entry.split(":", 1)
        print(json.dumps(lint(int(level), path, args.device, args.static_only)), flush=True)
        if args.device == "cuda":
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
