"""Elementwise SiLU (Swish) x * sigmoid(x) on an LLM feed-forward gate (65536 tokens x 11008 intermediate features)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TOKENS = 65536
INTERMEDIATE = 11008

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 30001, "INTERMEDIATE": 9999}]
cpu_extra_sizes = [{"TOKENS": 333, "INTERMEDIATE": 5001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.silu(x)


def get_inputs():
    x = torch.randn(TOKENS, INTERMEDIATE) * 2.0
    return [x]


def get_init_inputs():
    return []
