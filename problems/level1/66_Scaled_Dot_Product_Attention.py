"""Scaled dot-product attention (F.scaled_dot_product_attention, no mask) in fp32 on
batch x heads x seq x head_dim queries, keys and values: softmax(Q K^T / sqrt(d)) V."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
HEADS = 12
SEQ_LEN = 2048
HEAD_DIM = 64

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "HEADS": 4, "SEQ_LEN": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "HEADS": 7, "SEQ_LEN": 1999}]
cpu_extra_sizes = [{"HEADS": 3, "SEQ_LEN": 331}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return F.scaled_dot_product_attention(q, k, v)


def get_inputs():
    # Queries and keys scaled by 1.5 so scores have std ~2.25: attention is peaked enough that
    # outputs stay O(0.3) instead of averaging V down to ~0.
    q = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM).mul_(1.5)
    k = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM).mul_(1.5)
    v = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    return [q, k, v]


def get_init_inputs():
    return []
