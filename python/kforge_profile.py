"""`kforge profile`: one candidate's forward under Nsight Compute, for advice, never a verdict.

Run by kforge under ncu, in the workers' environment (no credentials, a scratch folder):
    ncu --nvtx --nvtx-include kforge_forward/ ... PYTHON kforge_profile.py PROBLEM CANDIDATE
The problem and the candidate are loaded as an evaluation loads them: load_inline and load built
through kforge's cache (kforge_inline), the model built with seed 42 in the problem's precision,
one input set from seed 1. The candidate sandbox (reads, writes, signals, network) is entered
before the candidate's code runs. Two untimed calls, then one inside the NVTX range
`kforge_forward`, the only one ncu profiles (a training problem's call is its step, forward and
backward: kforge_train.py). The last line on stdout is a JSON object: {"ok": true}
or {"ok": false, "error": "..."}.
"""
import importlib.util
import json
import os
import sys

import torch

import _kforge_worker
import kforge_inline
import kforge_tool_paths
from kforge_problem import DTYPES, cast, cast_model, error_text, load
from kforge_train import is_training_problem, step_for, with_grad_outputs


def main():
    problem_path, candidate_path = sys.argv[1], sys.argv[2]
    kforge_inline.install()
    try:
        problem = load(problem_path)
        if os.environ.get("KFORGE_PROFILE_SANDBOX", "1") != "0":
            # Nsight Compute's folders, which its injected library reads while it profiles
            # (kforge_tool_paths.py).
            tool = kforge_tool_paths.profiler_readable(os.environ, kforge_tool_paths.own_maps())
            # Said on stderr, which kforge shows when the profile fails: what the profiler was given.
            print(f"kforge profile: the profiler's folders readable in the sandbox: {':'.join(tool) or 'none found'}",
                  file=sys.stderr, flush=True)
            _kforge_worker.enter_prebuild_sandbox([problem_path, candidate_path] + tool, reads_build_cache=True)
        spec = importlib.util.spec_from_file_location("kforge_candidate_profiled", candidate_path)
        candidate = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(candidate)
        dtype = DTYPES.get(getattr(problem, "precision", "fp32"), torch.float32)
        with torch.device("cuda"), torch.no_grad():
            torch.manual_seed(42)
            model = cast_model(candidate.ModelNew(*[cast(a, dtype) for a in problem.get_init_inputs()]), dtype)
            torch.manual_seed(1)
            inputs = [cast(a, dtype) for a in problem.get_inputs()]
            if is_training_problem(problem):  # the step is what is timed: forward and backward
                model, inputs = step_for(problem, model, inputs), with_grad_outputs(model, inputs, 1)
            for _ in range(2):
                model(*inputs)
            torch.cuda.synchronize()
            # NVTX ranges are per thread, and autograd launches a backward's CUDA kernels from a
            # device thread of its own: with its threads off, the step's backward runs on this
            # thread, inside the range ncu filters on.
            with torch.autograd.set_multithreading_enabled(False):
                torch.cuda.nvtx.range_push("kforge_forward")
                model(*inputs)
                torch.cuda.synchronize()
                torch.cuda.nvtx.range_pop()
    except Exception as e:  # noqa: BLE001 (said on the last line, as the tool's answer)
        print(json.dumps({"ok": False, "error": error_text(e)}), flush=True)
        return 1
    print(json.dumps({"ok": True}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
