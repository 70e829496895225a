"""Training step of a GroupNorm in a diffusion UNet's ResNet block (Stable Diffusion XL's second
stage at 1024-pixel images: 640 channels on a 64 x 64 latent): x [80, 640, 64, 64] (839 MB in
fp32), 32 groups of 20 channels, each (sample, group) normalised over its channels and H x W
(81,920 elements) with eps 1e-5, then a learned per-channel weight and bias. Forward returns
the output [80, 640, 64, 64]. Compared: the gradient of x and of the weight and bias [640].
Mixed-precision training keeps GroupNorm in fp32 (autocast runs it there), so fp32 is its real
precision. The backward reduces per (sample, channel) and per (sample, group) before it can
write grad_x, then reduces across the batch for the parameter gradients.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 80
CHANNELS = 640
GROUPS = 32
HEIGHT = 64
WIDTH = 64
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "CHANNELS": 64, "GROUPS": 8, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 61, "WIDTH": 67}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 13, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, groups: int, channels: int, eps: float):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels, eps=eps)
        with torch.no_grad():
            self.norm.weight.add_(0.3 * torch.randn(channels))
            self.norm.bias.add_(0.3 * torch.randn(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    # Per-(sample, channel) offsets and a per-channel spread, so groups differ in mean and scale.
    shift = torch.randn(BATCH, CHANNELS, 1, 1)
    scale = torch.rand(1, CHANNELS, 1, 1).mul_(2.0).add_(0.5)
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH).mul_(scale).add_(shift)
    return [x]


def get_init_inputs():
    return [GROUPS, CHANNELS, EPS]
