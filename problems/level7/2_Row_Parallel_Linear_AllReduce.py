"""Megatron-LM's row-parallel linear on 2 GPUs: the attention output projection of a
tensor-parallel transformer layer. The attention heads are split between the ranks, so each rank
holds the attention context of its own heads, the matching half of the projection's input
features; it multiplies that half by the matching columns of the weight, and an all-reduce sums
the two ranks' partial outputs. Llama-2-70B-sized width 8192 (64 heads of 128, 32 per rank) with a
bias (GPT-style), 4096 tokens (2 sequences of 2048). Rank r holds x[:, r] [4096, 4096] (the full
context is [4096, 8192]) and W[:, r] [8192, 4096]; the bias [8192] is added once, after the sum.
Returns the full output [4096, 8192] on every rank.
Why it matters: this is the second half of every tensor-parallel attention block, and its
all-reduce of 4096 x 8192 fp32 values (128 MiB per rank) waits for the whole GEMM; splitting the
tokens into chunks and reducing one chunk while the next is multiplied, or writing the partial
sums straight to the peer over NVLink, hides part of it.
Sizing (arithmetic, not yet measured): a GEMM of 4096 x 4096 x 8192 per rank, 0.27 TFLOP at the
H200's 50 TFLOP/s in fp32 = 5.5 ms, plus the all-reduce's 128 MiB over NVLink (about 0.35 ms).
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

TOKENS = 4096
WIDTH = 8192

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "WIDTH": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3001}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        # Built whole on every rank from the same seed, then each keeps its shard: the ranks
        # together hold exactly one unsplit projection.
        proj = nn.Linear(width, width)
        part = width // ranks
        cols = slice(rank * part, (rank + 1) * part)
        self.weight = nn.Parameter(proj.weight.detach()[:, cols].clone())
        self.bias = nn.Parameter(proj.bias.detach().clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        partial = F.linear(x, self.weight)
        dist.all_reduce(partial)
        return partial + self.bias


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws the same full context and keeps the columns
    # of its own heads.
    x = torch.randn(TOKENS, WIDTH)
    part = WIDTH // world_size
    return [x[:, rank * part:(rank + 1) * part].contiguous()]


def get_init_inputs():
    return [WIDTH]
