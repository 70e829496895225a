"""InstanceNorm2d with a learned affine transform: every (sample, channel) plane is normalised by
its own mean and variance over H x W, then scaled and shifted per channel (NCHW input)."""
import torch
import torch.nn as nn

BATCH = 160
CHANNELS = 64
HEIGHT = 256
WIDTH = 256
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 16, "HEIGHT": 64, "WIDTH": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 79, "HEIGHT": 223, "WIDTH": 201}]
cpu_extra_sizes = [{"BATCH": 5, "HEIGHT": 37, "WIDTH": 45}]


class Model(nn.Module):
    def __init__(self, channels: int, eps: float):
        super().__init__()
        self.norm = nn.InstanceNorm2d(channels, eps=eps, affine=True)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(channels) * 0.2)
            self.norm.bias.add_(torch.randn(channels) * 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    # Each plane gets its own offset and contrast, so per-instance statistics matter.
    shift = torch.randn(BATCH, CHANNELS, 1, 1) * 2.0
    scale = torch.rand(BATCH, CHANNELS, 1, 1) * 3.0 + 0.25
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * scale + shift
    return [x]


def get_init_inputs():
    return [CHANNELS, EPS]
