"""Multi-rank problems (`world_size = N` in the file; docs/suite.md, "Multi-rank problems"): the
problem's model runs as N processes, one per rank, in one torch.distributed group, and every rank
calls the same code in the same order (its collectives must meet).

A rank's process joins the group through a file in a fresh folder (no TCP store to find a port
for); the collectives go over gloo on the CPU and NCCL on GPUs (rank r on GPU r; NVLink SHARP,
NCCL_NVLS_ENABLE, stays off). A rank that raises makes the others' collectives time out
(`timeout_s`), so a broken problem ends with every rank's error instead of a hang.

    python kforge_ranks.py [--device cpu|cuda] PROBLEM.py
runs the problem's model once on fresh inputs and prints each rank's output shapes and sums: a
quick look at a problem being written.
"""
import argparse
import datetime
import os
import sys
import tempfile
import traceback

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def world_size_of(module):
    """The ranks a problem declares (1: not a multi-rank problem)."""
    n = getattr(module, "world_size", 1)
    if not isinstance(n, int) or not 1 <= n <= 64:
        raise ValueError(f"world_size = {n!r}: a problem declares a whole number of ranks, 1 to 64")
    return n


class Rank:
    """This process's place in the group: get_inputs(rank, world_size) takes it."""

    def __init__(self, rank, world_size, device):
        self.rank, self.world_size, self.device = rank, world_size, device

    def inputs_of(self, module):
        return module.get_inputs(self.rank, self.world_size)


def _rank_main(rank, world_size, device, store_path, timeout_s, work, args, results):
    try:
        if device == "cuda":
            torch.cuda.set_device(rank)
        os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
        store = dist.FileStore(store_path, world_size)
        dist.init_process_group("nccl" if device == "cuda" else "gloo", store=store, rank=rank, world_size=world_size,
                                timeout=datetime.timedelta(seconds=timeout_s))
        try:
            value = work(Rank(rank, world_size, device), *args)
        finally:
            dist.destroy_process_group()
        results.put((rank, True, value))
    except BaseException as e:  # noqa: BLE001 (reported as this rank's error)
        results.put((rank, False, _describe(e)))


def _describe(e):
    """One line: the exception, and where the problem's own code raised it (the innermost frame
    outside torch and kforge's tools)."""
    text = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    ours = os.path.dirname(os.path.abspath(__file__))
    for frame in reversed(traceback.extract_tb(e.__traceback__)):
        if os.path.dirname(os.path.abspath(frame.filename)) != ours and "/torch/" not in frame.filename:
            return f"{text} ({os.path.basename(frame.filename)}, line {frame.lineno})"
    return text


# What a rank says when another rank's failure broke the collective it was in: the other rank's
# error is the cause, this one only its echo.
_ECHOES = ("Connection closed by peer", "Connection reset by peer", "timed out", "Timed out", "NCCL communicator was aborted")


def run_ranks(world_size, device, work, args=(), timeout_s=120):
    """Calls `work(Rank, *args)` in each of `world_size` processes of one group and returns their
    values in rank order (picklable; tensors go back as CPU tensors). `work` must be a module-level
    function (the processes are spawned, not forked: CUDA and a forked parent do not mix). Raises
    RuntimeError naming every rank that failed."""
    if device == "cuda" and torch.cuda.device_count() < world_size:
        raise RuntimeError(f"{world_size} ranks need {world_size} GPUs; this machine has {torch.cuda.device_count()}")
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    with tempfile.TemporaryDirectory(prefix="kforge-ranks-") as folder:
        store_path = os.path.join(folder, "store")
        procs = [ctx.Process(target=_rank_main,
                             args=(r, world_size, device, store_path, timeout_s, work, args, results), daemon=True)
                 for r in range(world_size)]
        for p in procs:
            p.start()
        got = {}
        deadline = timeout_s * 3 + 60  # a collective that times out, plus the import and the teardown
        try:
            for _ in range(world_size):
                rank, ok, value = results.get(timeout=deadline)
                got[rank] = (ok, value)
        except Exception:  # noqa: BLE001 (queue.Empty: a rank died without a word)
            pass
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
    failed = {r: got[r][1] for r in range(world_size) if r in got and not got[r][0]}
    lost = [f"rank {r}: ended without a result (exit code {procs[r].exitcode})" for r in range(world_size) if r not in got]
    causes = [f"rank {r}: {text}" for r, text in failed.items() if not any(e in text for e in _ECHOES)]
    echoes = [r for r, text in failed.items() if any(e in text for e in _ECHOES)]
    if causes and echoes:
        causes.append(f"rank{'s' if len(echoes) > 1 else ''} {', '.join(map(str, echoes))} then failed in a collective")
    elif echoes:
        causes = [f"rank {r}: {failed[r]}" for r in echoes]
    if causes or lost:
        raise RuntimeError("; ".join(causes + lost))
    return [got[r][1] for r in range(world_size)]


def _peek(rank, path):
    from kforge_problem import load, tensors_of
    module = load(path, rank.device == "cpu")
    with torch.device(rank.device):
        torch.manual_seed(42)
        model = module.Model(*module.get_init_inputs())
        torch.manual_seed(1)
        inputs = rank.inputs_of(module)
        with torch.no_grad():
            out = model(*inputs)
    return [(tuple(t.shape), str(t.dtype), float(t.double().sum())) for t in tensors_of(out)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("problem")
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from kforge_problem import load
    n = world_size_of(load(args.problem, args.device == "cpu"))
    for rank, outputs in enumerate(run_ranks(n, args.device, _peek, (os.path.abspath(args.problem),))):
        print(f"rank {rank}: " + ", ".join(f"{shape} {dtype} sum {total:.6g}" for shape, dtype, total in outputs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
