"""Training step of a linear projection followed by LayerNorm over its output features (the
dense -> LayerNorm pair of post-LN encoders such as BERT, here without the residual add), at
BERT-large's width and a pre-training micro-batch: 64 sequences of 512 tokens, width 1024.
x [64, 512, 1024], dense W [1024, 1024], b [1024], LayerNorm gain and bias [1024], eps 1e-5.
Returns LayerNorm(x W^T + b) [64, 512, 1024].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of W, b, the gain and the norm's bias.
Why it matters for training: LayerNorm's backward needs per-row reductions of the upstream
gradient (with the normalised values) before the dgrad/wgrad GEMMs can start, plus column sums
for the gain and bias; a fused kernel does the norm in the GEMM's epilogue and its backward in
one pass over the rows.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

BATCH = 64
SEQ = 512
IN_FEATURES = 1024
OUT_FEATURES = 1024
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "SEQ": 64, "IN_FEATURES": 256, "OUT_FEATURES": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "SEQ": 509}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ": 37}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, eps: float):
        super().__init__()
        self.eps = eps
        self.dense = nn.Linear(in_features, out_features)
        # A trained gain and bias rather than the trivial ones and zeros.
        self.norm_weight = nn.Parameter(1.0 + 0.1 * torch.randn(out_features))
        self.norm_bias = nn.Parameter(0.1 * torch.randn(out_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.dense(x)
        return F.layer_norm(y, (y.shape[-1],), self.norm_weight, self.norm_bias, self.eps)


def get_inputs():
    x = torch.randn(BATCH, SEQ, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, EPS]
