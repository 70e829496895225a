"""Training step of a linear layer followed by exact (erf) GELU, the first half of a ViT-L/16 MLP
block: 32 images of 197 tokens (14 x 14 patches + class token) of width 1024, fc1 1024 -> 4096
with bias. x [32, 197, 1024], W [4096, 1024], b [4096]. Returns GELU(x W^T + b) [32, 197, 4096].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of W and b.
Why it matters for training: the activation's backward needs the pre-activation (saved, or
recomputed from x and W) and multiplies the upstream gradient by GELU' before both backward GEMMs;
fusing it into the GEMMs' prologue/epilogue saves full passes over the widest activation of the
block.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

BATCH = 32
TOKENS = 197
HIDDEN = 1024
MLP = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "TOKENS": 50, "HIDDEN": 256, "MLP": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "TOKENS": 145}]
cpu_extra_sizes = [{"BATCH": 3, "TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, hidden: int, mlp: int):
        super().__init__()
        self.fc1 = nn.Linear(hidden, mlp)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.fc1(x))


def get_inputs():
    x = torch.randn(BATCH, TOKENS, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, MLP]
