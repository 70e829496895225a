"""Training step of a two-layer MLP with a squared-ReLU activation (Primer, So et al. 2021; the
FFN of Nemotron-4), at the feed-forward shape of OPT-350M: width 1024 -> 4096 -> 1024, biases on
both layers, 8 sequences of 512 tokens. x [8, 512, 1024], fc1 W [4096, 1024], b [4096], fc2 W
[1024, 4096], b [1024]. Returns fc2(ReLU(fc1(x))^2) [8, 512, 1024].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of all four parameters.
Why it matters for training: four backward GEMMs and two bias sums around an activation whose
derivative, 2 * ReLU(z), must be kept or recomputed from the hidden pre-activation (4x wider
than the block's input); a fused MLP backward applies it inside the GEMMs instead of storing and
re-reading the scaled gradient.
Why squared and not plain ReLU: a plain ReLU's derivative jumps at 0, so a candidate whose first
GEMM sums in another order (split-K: 2^-21 apart) flips the mask of the few pre-activations that
lie that close to 0, and one flip moved about 1,000 elements of the input's and fc1's gradients
past the tolerance (CPU, this size, one flip in 16.8 million). The squared ReLU's derivative is
continuous, and the same candidate matches to 2^-21.
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
        return self.fc2(torch.relu(self.fc1(x)).square())


def get_inputs():
    x = torch.randn(BATCH, SEQ, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN]
