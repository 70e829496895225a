"""Training step of a two-layer ReLU MLP, the feed-forward block of OPT-350M: width 1024 ->
4096 -> 1024, biases on both layers, 8 sequences of 512 tokens. x [8, 512, 1024], fc1 W [4096,
1024], b [4096], fc2 W [1024, 4096], b [1024]. Returns fc2(ReLU(fc1(x))) [8, 512, 1024].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of all four parameters.
Why it matters for training: four backward GEMMs and two bias sums around a ReLU whose mask
(the sign of the hidden pre-activation, 4x wider than the block's input) must be kept or
recomputed; a fused MLP backward applies the mask inside the GEMMs instead of storing and
re-reading the masked gradient.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 8
SEQ = 512
HIDDEN = 1024
FFN = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ": 64, "HIDDEN": 256, "FFN": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "SEQ": 509}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ": 37}]


class Model(nn.Module):
    def __init__(self, hidden: int, ffn: int):
        super().__init__()
        self.fc1 = nn.Linear(hidden, ffn)
        self.fc2 = nn.Linear(ffn, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


def get_inputs():
    x = torch.randn(BATCH, SEQ, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN]
