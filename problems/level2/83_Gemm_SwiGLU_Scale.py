"""Transformer feed-forward gate: one bias-free linear layer producing gate and value halves, SiLU of the
gate times the value (SwiGLU), then multiplication by a constant residual scale."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TOKENS = 4096
HIDDEN = 2048
FFN = 2816
SCALE = 0.5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 128, "HIDDEN": 512, "FFN": 704}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 1531}]
cpu_extra_sizes = [{"TOKENS": 77}]


class Model(nn.Module):
    def __init__(self, hidden: int, ffn: int, scale: float):
        super().__init__()
        self.proj = nn.Linear(hidden, 2 * ffn, bias=False)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate, value = self.proj(x).chunk(2, dim=-1)
        return F.silu(gate) * value * self.scale


def get_inputs():
    x = torch.randn(TOKENS, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN, SCALE]
