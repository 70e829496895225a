"""Megatron-LM's tensor-parallel MLP on 2 GPUs: fc1 split by columns (each rank holds half of the
4 * width hidden units), GELU, fc2 split by rows, then an all-reduce that sums the two ranks'
partial outputs. Llama-2-7B-sized width 4096 -> 16384 -> 4096 with biases (GPT-style), 4096
tokens (2 sequences of 2048); every rank holds the same tokens. x [4096, 4096] on every rank; rank
r holds fc1 W[r] [8192, 4096], b[r] [8192] and fc2 W[r] [4096, 8192]; fc2's bias [4096] is added
once, after the sum. Returns the full output [4096, 4096] on every rank.
Why it matters: tensor parallelism is how a layer too large or too slow for one GPU is split, and
the all-reduce of 4096 x 4096 fp32 values (64 MiB per rank) sits on the critical path after the
second GEMM; overlapping it with the GEMM (splitting the rows and reducing one chunk while the
next is computed) or reducing in a fused epilogue hides part of it.
Sizing (arithmetic, not yet measured): 2 GEMMs of 4096 x 8192 x 4096 per rank, 0.55 TFLOP at the
H200's 50 TFLOP/s in fp32 = 11 ms, plus the all-reduce's 64 MiB over NVLink (about 0.2 ms).
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
cpu_sizes = {"TOKENS": 64, "WIDTH": 128, "HIDDEN": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3001}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, width: int, hidden: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        # Built whole on every rank from the same seed, then each keeps its shard: the ranks
        # together hold exactly one unsplit MLP.
        fc1, fc2 = nn.Linear(width, hidden), nn.Linear(hidden, width)
        part = hidden // ranks
        rows = slice(rank * part, (rank + 1) * part)
        self.w1 = nn.Parameter(fc1.weight.detach()[rows].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[rows].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, rows].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        partial = F.gelu(F.linear(x, self.w1, self.b1)) @ self.w2.t()
        dist.all_reduce(partial)
        return partial + self.b2


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws the same tokens.
    x = torch.randn(TOKENS, WIDTH)
    return [x]


def get_init_inputs():
    return [WIDTH, HIDDEN]
