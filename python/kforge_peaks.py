"""The device's peak rates, measured once for `kforge problems info --sol` (the speed-of-light
time of each problem): the device-to-device copy rate (bytes read + written per second) and the
dense matrix-multiply rate per precision (FLOP/s), each the best of several timed runs.

On a GPU: CUDA events; fp32 with TF32 off (a matmul of an fp32 problem is judged at fp32 accuracy,
and PyTorch's default keeps TF32 off for matmuls), `tf32` (fp32 inputs on TF32 tensor cores: the
ceiling of an fp32 convolution, which cuDNN may run in TF32 by PyTorch's default), bf16 and fp16
on the tensor cores. On the CPU: the host clock, fp32 and bf16. Prints one JSON object:
{"hardware", "torch", "copy_bytes_per_s", "matmul_flops_per_s": {"fp32", "tf32", "bf16", "fp16"},
"properties": {"sm_count", "l2_bytes", "memory_bytes", "compute_capability"} (on the CPU {"cores"})}."""
import argparse
import json
import os
import time

import torch


def best_seconds(fn, cuda, repeats):
    fn()  # warm: allocation, library handles, kernel selection
    best = float("inf")
    for _ in range(repeats):
        if cuda:
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda.synchronize()
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            best = min(best, start.elapsed_time(stop) / 1e3)
        else:
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", choices=["cpu", "cuda"], required=True)
    args = parser.parse_args()
    cuda = args.device == "cuda"
    device = torch.device(args.device)
    if cuda:
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    out = {"hardware": torch.cuda.get_device_name(0) if cuda else "cpu", "torch": torch.__version__}

    # Copies large enough to leave the caches: 1 GiB on a GPU (over ten times an H200's L2), 256 MiB
    # on the CPU.
    n = (1 << 30) if cuda else (256 << 20)
    src = torch.ones(n, dtype=torch.uint8, device=device)
    dst = torch.empty_like(src)
    seconds = best_seconds(lambda: dst.copy_(src), cuda, 10)
    out["copy_bytes_per_s"] = 2 * n / seconds
    del src, dst

    flops = {}
    size = 8192 if cuda else 1024
    dtypes = {"fp32": torch.float32, "bf16": torch.bfloat16}
    if cuda:
        dtypes["fp16"] = torch.float16
    if cuda:
        dtypes["tf32"] = torch.float32
    for name, dtype in dtypes.items():
        torch.backends.cuda.matmul.allow_tf32 = name == "tf32"
        a = torch.randn(size, size, device=device).to(dtype)
        b = torch.randn(size, size, device=device).to(dtype)
        seconds = best_seconds(lambda: torch.mm(a, b), cuda, 5)
        flops[name] = 2 * size**3 / seconds
        del a, b
    torch.backends.cuda.matmul.allow_tf32 = False
    out["matmul_flops_per_s"] = flops
    # What a prompt tells a model about the device, beside the rates.
    if cuda:
        p = torch.cuda.get_device_properties(0)
        out["properties"] = {"sm_count": p.multi_processor_count, "l2_bytes": p.L2_cache_size,
                             "memory_bytes": p.total_memory, "compute_capability": p.major + p.minor / 10}
    else:
        out["properties"] = {"cores": os.cpu_count() or 0}
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
