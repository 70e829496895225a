"""BatchNorm2d in training mode: normalise each channel with the batch's own mean and (biased)
variance over N, H, W, then apply a learned per-channel scale and shift (NCHW input)."""
import torch
import torch.nn as nn

BATCH = 48
CHANNELS = 96
HEIGHT = 384
WIDTH = 384

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "HEIGHT": 64, "WIDTH": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 23, "HEIGHT": 321, "WIDTH": 299}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 37, "WIDTH": 45}]


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        # Move the affine parameters away from the trivial ones/zeros.
        with torch.no_grad():
            self.bn.weight.add_(torch.randn(channels) * 0.2)
            self.bn.bias.add_(torch.randn(channels) * 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # The module stays in training mode, so batch statistics are used (running stats are
        # updated as a side effect but do not affect the output).
        return self.bn(x)


def get_inputs():
    # Channels with different offsets and spreads, as activations after a conv would have.
    shift = torch.randn(1, CHANNELS, 1, 1)
    scale = torch.rand(1, CHANNELS, 1, 1) * 2.0 + 0.5
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * scale + shift
    return [x]


def get_init_inputs():
    return [CHANNELS]
