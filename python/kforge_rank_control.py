"""The groups of a multi-rank evaluation (issue 24, docs/notes/multi-rank-judge.md), as the worker
(src/worker/rank_group.cpp) and the candidate host call them.

References: each rank's worker joins the references' group (gloo on the CPU, NCCL on GPUs) through
a file in a folder of kforge's, before the problem's Model is built (its __init__ may ask
dist.get_rank()), and a control group over gloo beside it, on which the workers agree on every
decision taken from a measurement (whether a trial failed anywhere, when the timing stops), so no
rank takes another branch and waits in a collective alone. The control group is a group of its
own so that an agreement still meets after the references' group broke (a rank's collective timed
out).

Candidates: each rank's candidate process joins the candidates' group, through a file in the one
folder all of them may write, in its job's private network namespace (only a loopback there:
GLOO_SOCKET_IFNAME=lo, since the host name resolves to an address no interface of that namespace
has), after its sandbox and before the candidate is imported.
"""
import datetime
import os

import torch
import torch.distributed as dist

_control = None


def _join(store_path, rank, world_size, cuda, timeout_s):
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    os.environ.setdefault("NCCL_SOCKET_IFNAME", "lo")
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    store = dist.FileStore(store_path, world_size)
    dist.init_process_group("nccl" if cuda else "gloo", store=store, rank=rank, world_size=world_size,
                            timeout=datetime.timedelta(seconds=timeout_s))


def join_references(store_path, rank, world_size, cuda, timeout_s):
    """The references' group and the control group, on every rank's worker."""
    global _control
    _join(store_path, rank, world_size, cuda, timeout_s)
    _control = dist.new_group(backend="gloo", timeout=datetime.timedelta(seconds=timeout_s))


def join_candidates(store_path, rank, world_size, cuda, timeout_s):
    """The candidates' group, in a rank's candidate process."""
    _join(store_path, rank, world_size, cuda, timeout_s)


def barrier():
    dist.barrier(group=_control)


def max_all(values):
    """Each value's largest over the ranks (a list of floats, the same length on every rank)."""
    t = torch.tensor(list(values), dtype=torch.float64)
    if t.numel():
        dist.all_reduce(t, op=dist.ReduceOp.MAX, group=_control)
    return t.tolist()


def any_all(flag):
    t = torch.tensor([1 if flag else 0], dtype=torch.int64)
    dist.all_reduce(t, op=dist.ReduceOp.MAX, group=_control)
    return bool(t.item())


def from_rank_zero(value):
    """Rank 0's integer, on every rank."""
    t = torch.tensor([int(value)], dtype=torch.int64)
    dist.broadcast(t, src=0, group=_control)
    return int(t.item())


def leave():
    global _control
    if dist.is_initialized():
        dist.destroy_process_group()
    _control = None
