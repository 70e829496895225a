"""Runs problems' reference forwards under Nsight Compute, for bench/ncu_agreement.sh.

Usage (under ncu): ncu_forward.py CALLS PROBLEM.py...
       (to count):    ncu_forward.py --count PROBLEM.py...   prints "<path> <kernels per forward>"
For each problem: seed 42, the model built on the GPU, one input set made on the GPU (as kforge
makes them), two untimed calls, then CALLS calls, each inside an NVTX range named kforge_forward
(ncu profiles only the kernels launched inside it). Prints, per problem, one line
"problem <path> calls <CALLS>" to stderr, in order, so the kernels can be split afterwards.
"""
import importlib.util
import sys

import torch


def load(path):
    spec = importlib.util.spec_from_file_location("problem", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def count_kernels(paths):
    """Kernels one forward launches, by torch.profiler (run apart from ncu: both use CUPTI)."""
    from torch.profiler import ProfilerActivity, profile
    for path in paths:
        problem = load(path)
        with torch.device("cuda"), torch.no_grad():
            torch.manual_seed(42)
            model = problem.Model(*problem.get_init_inputs())
            inputs = problem.get_inputs()
            model(*inputs)
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                model(*inputs)
                torch.cuda.synchronize()
        kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA and not e.name.startswith("Memcpy") and not e.name.startswith("Memset")]
        print(path, len(kernels), flush=True)
        del model, inputs
        torch.cuda.empty_cache()


def main():
    if sys.argv[1] == "--count":
        count_kernels(sys.argv[2:])
        return
    calls = int(sys.argv[1])
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    for path in sys.argv[2:]:
        problem = load(path)
        with torch.device("cuda"), torch.no_grad():
            torch.manual_seed(42)
            model = problem.Model(*problem.get_init_inputs())
            torch.manual_seed(7)
            inputs = problem.get_inputs()
            for _ in range(2):
                model(*inputs)
            torch.cuda.synchronize()
            for _ in range(calls):
                torch.cuda.nvtx.range_push("kforge_forward")
                model(*inputs)
                torch.cuda.nvtx.range_pop()
            torch.cuda.synchronize()
        print(f"problem {path} calls {calls}", file=sys.stderr, flush=True)
        del model, inputs
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
