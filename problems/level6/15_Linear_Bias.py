"""Training step of a fully connected layer with bias, y = x W^T + b, at the attention output
projection of a Phi-2-sized transformer (width 2560, biased linears): 2 sequences of 2048 tokens,
x [2, 2048, 2560], W [2560, 2560], b [2560]. Returns y [2, 2048, 2560].
Backward runs from a random upstream gradient g of y's shape; compared are y, the gradient of x
(input 0, which earlier layers need) and the gradients of W and b.
Why it matters for training: a linear layer's backward is two GEMMs of the forward's size
(dgrad g W and wgrad g^T x) plus the bias gradient, a column sum of g that can ride along the
wgrad GEMM's pass over g; linear layers are most of a transformer's training FLOPs.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 2
SEQ = 2048
IN_FEATURES = 2560
OUT_FEATURES = 2560

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ": 256, "IN_FEATURES": 384, "OUT_FEATURES": 320}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ": 999}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ": 37}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x)


def get_inputs():
    x = torch.randn(BATCH, SEQ, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
