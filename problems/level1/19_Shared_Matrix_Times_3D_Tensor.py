"""One matrix applied from the left to every slice of a 3D tensor: out[b] = W @ X[b], W is T x T, X is B x T x C (token mixing, as in MLP-Mixer)."""
import torch
import torch.nn as nn

BATCH = 256
TOKENS = 576  # 24 x 24 patches
CHANNELS = 768

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 131, "TOKENS": 401, "CHANNELS": 771}]
cpu_extra_sizes = [{"BATCH": 3, "TOKENS": 197, "CHANNELS": 255}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, W: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
        # W (T x T) broadcasts over the batch of X (B x T x C); the result is B x T x C.
        return torch.matmul(W, X)


def get_inputs():
    W = torch.randn(TOKENS, TOKENS) * TOKENS ** -0.5
    X = torch.randn(BATCH, TOKENS, CHANNELS)
    return [W, X]


def get_init_inputs():
    return []
