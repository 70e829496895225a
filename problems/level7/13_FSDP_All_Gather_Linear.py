"""A linear layer under PyTorch FSDP (ZeRO-3, as in DeepSpeed) on 2 GPUs: the layer's weight and
bias are flattened into one flat parameter (FSDP's FlatParameter: the weight's rows, then the
bias), padded with zeros to a multiple of the ranks, and each rank holds one contiguous shard of
it. In forward every rank all-gathers the shards (all_gather_into_tensor), views the full weight
and bias out of the gathered flat tensor, and runs the linear layer on its own batch of tokens
(data parallel: different tokens per rank). GPT-style fc1 of width 4096 -> 16384 with a bias,
4096 tokens per rank (2 sequences of 2048). x [4096, 4096] on each rank (its tokens); rank r
holds shard[r] [33562624] of the flat [67125248] (67108864 weights, then 16384 biases; no
padding at this size, one zero at the CPU size). Returns this rank's output [4096, 16384].
Why it matters: ZeRO-3 / FSDP is how models too large to replicate are trained data-parallel,
and every layer's forward waits for its weights to arrive; FSDP prefetches the next layer's
all-gather, and within one layer a kernel can start the GEMM on the weight rows its own shard
holds (half of the output columns) while the peer's half is still in flight.
Sizing (arithmetic, not yet measured): a GEMM of 4096 x 16384 x 4096 per rank, 0.55 TFLOP at the
H200's 50 TFLOP/s in fp32 = 11 ms, plus the all-gather's 128 MiB received over NVLink (about
0.34 ms).
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

TOKENS = 4096
WIDTH = 4096
HIDDEN = 16384

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 32, "WIDTH": 128, "HIDDEN": 511}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3001}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, width: int, hidden: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        self.width, self.hidden = width, hidden
        # Built whole on every rank from the same seed, then each keeps its shard of the flat
        # parameter: the ranks together hold exactly one unsplit linear layer.
        layer = nn.Linear(width, hidden)
        flat = torch.cat([layer.weight.detach().flatten(), layer.bias.detach()])
        shard = -(-flat.numel() // ranks)
        flat = F.pad(flat, (0, shard * ranks - flat.numel()))
        self.shard = nn.Parameter(flat[rank * shard:(rank + 1) * shard].clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shard = self.shard.detach()
        flat = shard.new_empty(dist.get_world_size() * shard.numel())
        dist.all_gather_into_tensor(flat, shard)
        weights = self.hidden * self.width
        weight = flat[:weights].view(self.hidden, self.width)
        bias = flat[weights:weights + self.hidden]
        return F.linear(x, weight, bias)


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws all ranks' tokens and keeps its own
    # contiguous shard of them.
    x = torch.randn(world_size * TOKENS, WIDTH)
    return [x[rank * TOKENS:(rank + 1) * TOKENS].clone()]


def get_init_inputs():
    return [WIDTH, HIDDEN]
