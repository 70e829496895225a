"""Megatron-LM's sequence parallelism on 2 GPUs, leaving a tensor-parallel MLP: the second linear
(fc2) is row-parallel, each rank multiplying its half of the hidden units by the matching columns
of the weight, and instead of an all-reduce a reduce-scatter over the token dimension sums the
two ranks' partial outputs and leaves each rank the sum for its own shard of the tokens (what the
following residual add, norm and dropout work on). A 13B-class GPT's MLP, width 5120 -> hidden
20480 -> 5120 with biases, 4096 tokens (2 sequences of 2048). Rank r holds the activations of its
hidden units h[:, r] [4096, 10240] (the full GELU output is [4096, 20480]) and W[:, r]
[5120, 10240]; fc2's bias [5120] is added once, after the sum, on each token shard. Returns this
rank's tokens of the output, rows r * 2048 to (r + 1) * 2048: [2048, 5120].
Why it matters: with sequence parallelism this reduce-scatter replaces the all-reduce at the end
of every tensor-parallel block; it moves half the bytes, but still waits for the whole GEMM.
Computing the peer's token rows first and sending them while the own rows are multiplied, or
reducing in the GEMM's epilogue, hides it.
Sizing (arithmetic, not yet measured): a GEMM of 4096 x 5120 x 10240 per rank, 0.43 TFLOP at the
H200's 50 TFLOP/s in fp32 = 8.6 ms, plus the reduce-scatter's 40 MiB each way over NVLink (about
0.1 ms).
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

TOKENS = 4096
WIDTH = 5120
HIDDEN = 20480

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "WIDTH": 128, "HIDDEN": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3002}]
cpu_extra_sizes = [{"TOKENS": 38}]


class Model(nn.Module):
    def __init__(self, width: int, hidden: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        # Built whole on every rank from the same seed, then each keeps its shard: the ranks
        # together hold exactly one unsplit fc2.
        fc2 = nn.Linear(hidden, width)
        part = hidden // ranks
        cols = slice(rank * part, (rank + 1) * part)
        self.weight = nn.Parameter(fc2.weight.detach()[:, cols].clone())
        self.bias = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        partial = F.linear(h, self.weight)
        shard = partial.new_empty((partial.shape[0] // dist.get_world_size(), partial.shape[1]))
        dist.reduce_scatter_tensor(shard, partial)
        return shard + self.bias


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws the same full activations (standing for
    # fc1's GELU output) and keeps the columns of its own hidden units. TOKENS is a multiple of
    # world_size, so the reduce-scatter gives every rank the same number of tokens.
    h = torch.randn(TOKENS, HIDDEN)
    part = HIDDEN // world_size
    return [h[:, rank * part:(rank + 1) * part].contiguous()]


def get_init_inputs():
    return [WIDTH, HIDDEN]
