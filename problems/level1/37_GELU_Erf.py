"""Elementwise exact GELU x * (1 + erf(x / sqrt(2))) / 2 on ViT-B MLP activations (batch 1280, 197 tokens, 3072 features)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 1280
TOKENS = 197  # 14 x 14 patches + class token
HIDDEN = 3072

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 501, "TOKENS": 199, "HIDDEN": 3001}]
cpu_extra_sizes = [{"BATCH": 3, "TOKENS": 101, "HIDDEN": 1001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(x)  # approximate="none": the erf form


def get_inputs():
    x = torch.randn(BATCH, TOKENS, HIDDEN) * 1.5
    return [x]


def get_init_inputs():
    return []
