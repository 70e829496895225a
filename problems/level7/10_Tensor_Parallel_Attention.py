"""Megatron-LM's tensor-parallel self-attention on 2 GPUs: the heads are split across the ranks.
The fused QKV projection is column-parallel (its output rows are grouped by head, q, k and v of
each head in turn, so each rank's contiguous half of them is the q, k and v of half the heads),
each rank runs causal attention over its own heads with scaled_dot_product_attention, the output
projection is row-parallel (each rank holds the columns that read its heads), and an all-reduce
sums the two ranks' partial outputs. Llama-2-7B-sized width 4096 (32 heads of 128, 16 per rank)
with biases (GPT-style), 2 sequences of 2048 tokens; every rank holds the same tokens.
x [2, 2048, 4096] on every rank; rank r holds W_qkv[r] [6144, 4096], b_qkv[r] [6144] (of the fused
[12288, 4096]) and W_o[r] [4096, 2048]; the output projection's bias [4096] is added once, after
the sum. Weights are N(0, 1/4096) (unit-variance q, k and v: scores of std 1), biases N(0, 0.01).
Returns the full output [2, 2048, 4096] on every rank.
Why it matters: this is half of every tensor-parallel transformer layer (the MLP, problem 1, is
the other), and the all-reduce of 2 x 2048 x 4096 fp32 values (64 MiB per rank) waits on the last
GEMM; a kernel can start reducing the output projection's first row blocks while the rest are
computed, and fuse the bias into the reduction.
Sizing (arithmetic, not yet measured): the QKV GEMM 2 x 4096 x 4096 x 6144 = 0.21 TFLOP and the
output GEMM 2 x 4096 x 2048 x 4096 = 0.07 TFLOP per rank (5.5 ms at the H200's 50 TFLOP/s in
fp32), causal attention over 16 heads, half of 4 x 2 x 16 x 2048^2 x 128 = 0.03 TFLOP (about
2 ms in an fp32 kernel without tensor cores), plus the all-reduce's 64 MiB over NVLink (about
0.2 ms).
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

BATCH = 2
SEQ = 2048
WIDTH = 4096
HEADS = 32

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"SEQ": 32, "WIDTH": 128, "HEADS": 4}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"SEQ": 1999}]
cpu_extra_sizes = [{"SEQ": 23}]


class Model(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        self.head_dim = width // heads
        # Built whole on every rank from the same seed, then each keeps its shard: the ranks
        # together hold exactly one unsplit attention block.
        w_qkv = torch.randn(3 * width, width).mul_(width ** -0.5)
        b_qkv = torch.randn(3 * width).mul_(0.1)
        w_o = torch.randn(width, width).mul_(width ** -0.5)
        b_o = torch.randn(width).mul_(0.1)
        rows = slice(rank * 3 * width // ranks, (rank + 1) * 3 * width // ranks)
        cols = slice(rank * width // ranks, (rank + 1) * width // ranks)
        self.w_qkv = nn.Parameter(w_qkv[rows].clone())
        self.b_qkv = nn.Parameter(b_qkv[rows].clone())
        self.w_o = nn.Parameter(w_o[:, cols].clone())
        self.b_o = nn.Parameter(b_o.clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, _ = x.shape
        # [batch, seq, local heads, (q, k, v), head_dim] -> three [batch, local heads, seq, head_dim]
        qkv = F.linear(x, self.w_qkv, self.b_qkv).view(batch, seq, -1, 3, self.head_dim)
        q, k, v = qkv.permute(3, 0, 2, 1, 4).unbind(0)
        heads = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        partial = heads.transpose(1, 2).reshape(batch, seq, -1) @ self.w_o.t()
        dist.all_reduce(partial)
        return partial + self.b_o


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws the same tokens.
    x = torch.randn(BATCH, SEQ, WIDTH)
    return [x]


def get_init_inputs():
    return [WIDTH, HEADS]
