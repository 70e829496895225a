"""Maximum over the last dimension (values only): the largest logit of every token over a
32000-entry vocabulary."""
import torch
import torch.nn as nn

TOKENS = 40960
VOCAB = 32000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 20011, "VOCAB": 30011}]
cpu_extra_sizes = [{"TOKENS": 77, "VOCAB": 3001}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.max(x, dim=self.dim).values


def get_inputs():
    # Per-token temperature, so the maxima are spread out instead of all near the same value.
    scale = torch.rand(TOKENS, 1) * 2.0 + 0.5
    x = torch.randn(TOKENS, VOCAB).mul_(scale)
    return [x]


def get_init_inputs():
    return [-1]
