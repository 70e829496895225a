"""Training step of the pointwise half of a ConvNeXt block (ConvNeXt-B stage 3: 512 channels on a
14x14 map; CaiT's FFN sublayer has the same form): channels-last activations x [batch, 14, 14,
512], LayerNorm over channels (eps 1e-6) -> Linear 512 -> 2048 (bias) -> exact GELU -> Linear
2048 -> 512 (bias) -> a learned per-channel scale gamma [512] (layer scale) -> residual add.
Batch of 256 maps; returns [batch, 14, 14, 512]; kforge drives backward with a random upstream
gradient of that shape.
Compared: the output, the gradient of x and the gradients of all seven parameters (LayerNorm
weight and bias, both linear layers' weights and biases, gamma). gamma starts at 0.1 +- 0.05
rather than ConvNeXt's 1e-6, as a trained model's scales have grown (at 1e-6 the branch, and
every weight gradient but gamma's, would be negligible).
Why it matters: layer scale is in ConvNeXt, CaiT, DeiT-III and many ViTs; its training step is
two GEMMs forward and four backward whose prologue (LayerNorm) and epilogues (bias, GELU, scale,
residual, and the gamma and bias gradient reductions) are memory passes over 50176 tokens that a
fused implementation folds into the GEMMs.
Precision: bf16 weights, activations and gradients; LayerNorm statistics and normalisation in
fp32, rounded once; GEMMs accumulate in fp32.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: ConvNeXt and CaiT are trained with mixed precision.
precision = "bf16"
mode = "train"

BATCH = 256
SIZE = 14
CHANNELS = 512
EXPANSION = 4
EPS = 1e-6

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SIZE": 7, "CHANNELS": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 97, "SIZE": 13}]
cpu_extra_sizes = [{"BATCH": 3, "SIZE": 5}]


class Model(nn.Module):
    def __init__(self, channels: int, expansion: int, eps: float):
        super().__init__()
        self.eps = eps
        hidden = channels * expansion
        self.norm_w = nn.Parameter(1.0 + 0.1 * torch.randn(channels))
        self.norm_b = nn.Parameter(0.1 * torch.randn(channels))
        self.w1 = nn.Parameter(torch.randn(hidden, channels) * channels ** -0.5)
        self.b1 = nn.Parameter(torch.randn(hidden) * 0.02)
        self.w2 = nn.Parameter(torch.randn(channels, hidden) * hidden ** -0.5)
        self.b2 = nn.Parameter(torch.randn(channels) * 0.02)
        self.gamma = nn.Parameter(0.1 + 0.05 * torch.randn(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        c = x.shape[-1]
        h = F.layer_norm(x.float(), (c,), self.norm_w.float(), self.norm_b.float(), self.eps).to(x.dtype)
        h = F.linear(F.gelu(F.linear(h, self.w1, self.b1)), self.w2, self.b2)
        return x + self.gamma * h


def get_inputs():
    x = torch.randn(BATCH, SIZE, SIZE, CHANNELS)
    return [x]


def get_init_inputs():
    return [CHANNELS, EXPANSION, EPS]
