"""Attention scores: query times key transposed for every (batch, head), scaled by 1/sqrt(head_dim),
plus a learned per-head position bias, then softmax over the keys."""
import math

import torch
import torch.nn as nn

BATCH = 48
HEADS = 16
SEQ_LEN = 512
HEAD_DIM = 64

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "HEADS": 4, "SEQ_LEN": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19}]
cpu_extra_sizes = [{"BATCH": 3}]


class Model(nn.Module):
    def __init__(self, heads: int, seq_len: int, head_dim: int):
        super().__init__()
        self.position_bias = nn.Parameter(torch.randn(heads, seq_len, seq_len) * 0.5)
        self.scale = 1.0 / math.sqrt(head_dim)

    def forward(self, q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        scores = scores + self.position_bias
        return torch.softmax(scores, dim=-1)


def get_inputs():
    q = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    k = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    return [q, k]


def get_init_inputs():
    return [HEADS, SEQ_LEN, HEAD_DIM]
