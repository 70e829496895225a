"""Whether a convolution's two speeds in fresh processes (level1/83's ConvTranspose2d: the same
cuDNN kernel at 2.8 or 3.4 ms, docs/benchmarks.md sessions 31-36) are two engine configurations
under one kernel name: cuDNN's engines have knobs (tile, split, swizzle, ...) that a profile's
kernel name does not show. Each fresh process runs the problem with cuDNN's API log on
(CUDNN_LOGLEVEL_DBG=3 into a file of its own), times the top kernel by the profiler's GPU time (the
log's host cost does not touch it), and the parent lists per process: that kernel's mean time, and
a digest of the log's lines that name engines and knobs (pointers and times taken out), so two
processes at two speeds with one digest say placement, with two digests say configuration.
Usage: python bench/plan_knobs.py PROBLEM.py [PROCESSES [LOG_FOLDER]]   (needs a CUDA device)
"""
import hashlib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import torch


def one_process(path):
    spec = importlib.util.spec_from_file_location("problem", path)
    problem = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(problem)
    torch.manual_seed(0)
    model = problem.Model(*problem.get_init_inputs()).cuda()
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in problem.get_inputs()]
    with torch.no_grad():
        model(*inputs)
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                model(*inputs)
            torch.cuda.synchronize()
    top = max((e for e in prof.key_averages() if e.device_time_total > 0), key=lambda e: e.device_time_total)
    print(f"RESULT {top.device_time_total / top.count / 1e3:.3f} {top.key[:80]}")


# What varies between processes whatever the configuration: addresses, handles, ids, times.
NOISE = re.compile(r"0x[0-9a-fA-F]+|\b\d{6,}\b|Time:.*|Process=\d+|Thread=\d+|pid=\d+|tid=\d+|\d+:\d+:\d+\.\d+")


def configuration_lines(log_text):
    keep = [NOISE.sub("#", line.strip()) for line in log_text.splitlines()
            if re.search(r"knob|engine|ENGINE|KNOB|behavior|BEHAVIOR", line)]
    return sorted(set(keep))


def main():
    if sys.argv[1:2] == ["--one"]:
        one_process(sys.argv[2])
        return
    path = sys.argv[1]
    processes = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    folder = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp()
    os.makedirs(folder, exist_ok=True)
    print(f"{path}: {processes} fresh processes, cuDNN's log in {folder}")
    for i in range(processes):
        log = os.path.join(folder, f"cudnn-{i}.log")
        env = dict(os.environ, CUDNN_LOGLEVEL_DBG="3", CUDNN_LOGDEST_DBG=log)
        out = subprocess.run([sys.executable, __file__, "--one", path], capture_output=True, text=True, env=env)
        result = next((l for l in out.stdout.splitlines() if l.startswith("RESULT ")), None)
        if result is None:
            print(f"  process {i}: failed: {(out.stderr.strip().splitlines() or ['?'])[-1][:120]}")
            continue
        lines = configuration_lines(open(log, errors="replace").read()) if os.path.exists(log) else []
        with open(os.path.join(folder, f"config-{i}.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        digest = hashlib.sha1("\n".join(lines).encode()).hexdigest()[:10]
        _, ms, kernel = result.split(" ", 2)
        print(f"  process {i}: {kernel} {ms} ms a call; {len(lines)} engine/knob lines, digest {digest}", flush=True)
        os.remove(log)  # large; the extract stays


if __name__ == "__main__":
    main()
