"""4D tensor times a matrix over its last dimension: out[b,t,n,e] = sum_d X[b,t,n,d] W[d,e] (einsum "btnd,de->btne"), a token projection of a video clip."""
import torch
import torch.nn as nn

BATCH = 8
FRAMES = 12
TOKENS = 784  # 28 x 28 patches per frame
DIM = 512
OUT_DIM = 1536

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "FRAMES": 2}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "FRAMES": 7, "TOKENS": 785, "DIM": 509, "OUT_DIM": 1531}]
cpu_extra_sizes = [{"BATCH": 1, "FRAMES": 3, "TOKENS": 197, "DIM": 257, "OUT_DIM": 383}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
        return torch.einsum("btnd,de->btne", X, W)


def get_inputs():
    X = torch.randn(BATCH, FRAMES, TOKENS, DIM) * DIM ** -0.5
    W = torch.randn(DIM, OUT_DIM)
    return [X, W]


def get_init_inputs():
    return []
