"""RMSNorm over the last (hidden) dimension, written out: x * rsqrt(mean(x^2) + eps) * weight,
on a batch of token sequences with a 7168-wide hidden state."""
import torch
import torch.nn as nn

BATCH = 8
SEQ_LEN = 8192
HIDDEN = 7168
EPS = 1e-6

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 7001}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 77}]


class Model(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden) + torch.randn(hidden) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean_sq = x.pow(2).mean(dim=-1, keepdim=True)
        return x * torch.rsqrt(mean_sq + self.eps) * self.weight


def get_inputs():
    # Per-token magnitudes vary over two orders of magnitude, as residual streams do.
    scale = torch.exp(torch.randn(BATCH, SEQ_LEN, 1))
    x = torch.randn(BATCH, SEQ_LEN, HIDDEN) * scale
    return [x]


def get_init_inputs():
    return [HIDDEN, EPS]
