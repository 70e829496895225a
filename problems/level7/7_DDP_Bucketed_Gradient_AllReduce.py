"""PyTorch DistributedDataParallel's gradient averaging on 2 GPUs, under mixed-precision training
with a loss scale: each rank has run backward on its own batch and holds its own gradients, all
parameters' gradients laid end to end in one flat fp32 buffer, still multiplied by the loss scale
(65536, GradScaler's initial scale). As DDP's reducer does, the gradients are divided by the
number of ranks while copied into the bucket buffer, and the buffer is all-reduced (a sum) one
bucket at a time: a first bucket of 1 MiB, then buckets of 25 MiB (DDP's defaults), the last one
partly filled. Then GradScaler.unscale_ multiplies the averaged gradients by 1 / 65536. A model of
BERT-large's size, 335,544,320 parameters. Rank r holds its scaled gradients [335544320]; returns
the averaged, unscaled gradients [335544320], the same on every rank.
Why it matters: data parallelism ends every step with this all-reduce of every gradient, the
largest collective of the step, and eager PyTorch adds a pass over the 1.25 GiB buffer before it
(the copy and division) and one after (the unscale). The division and the unscale fold into one
scale applied once, the small buckets' launches merge, and the scaling fuses into the reduction
(NCCL reduces with a pre-multiplied sum, or a kernel sums the peer's values as they arrive).
Sizing (arithmetic, not yet measured): the all-reduce moves 1.25 GiB each way over NVLink (about
3.4 ms), and eager's two passes read and write 5 GiB at 4.2 TB/s (about 1.3 ms): about 5 ms.
"""
import torch
import torch.distributed as dist
import torch.nn as nn

world_size = 2

NUMEL = 335544320
FIRST_BUCKET_NUMEL = 262144  # 1 MiB of fp32
BUCKET_NUMEL = 6553600  # 25 MiB of fp32
LOSS_SCALE = 65536.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"NUMEL": 300000, "FIRST_BUCKET_NUMEL": 4096, "BUCKET_NUMEL": 65536}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"NUMEL": 100000007}]
cpu_extra_sizes = [{"NUMEL": 123457}]


class Model(nn.Module):
    def __init__(self, first_bucket_numel: int, bucket_numel: int, loss_scale: float):
        super().__init__()
        self.first_bucket_numel = first_bucket_numel
        self.bucket_numel = bucket_numel
        self.loss_scale = loss_scale

    def forward(self, grads: torch.Tensor) -> torch.Tensor:
        # Divided while copied into the bucket buffer (the input stays as it was drawn).
        flat = grads / dist.get_world_size()
        start, size = 0, self.first_bucket_numel
        while start < flat.numel():
            dist.all_reduce(flat[start:start + size])
            start, size = start + size, self.bucket_numel
        return flat.mul_(1.0 / self.loss_scale)


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws every rank's gradients in turn and keeps its
    # own, so each rank's gradients come from its own batch.
    grads = None
    for r in range(world_size):
        drawn = torch.randn(NUMEL).mul_(LOSS_SCALE)
        if r == rank:
            grads = drawn
        del drawn
    return [grads]


def get_init_inputs():
    return [FIRST_BUCKET_NUMEL, BUCKET_NUMEL, LOSS_SCALE]
