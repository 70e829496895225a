"""2D transposed convolution with a 3x5 kernel and stride (2, 1) (height doubled, width kept),
InstanceNorm2d with learned affine parameters, LeakyReLU, then multiplication by a constant."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
IN_CHANNELS = 64
OUT_CHANNELS = 96
HEIGHT = 64
WIDTH = 128
NEGATIVE_SLOPE = 0.1
SCALE = 0.75

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 8, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 23, "HEIGHT": 61, "WIDTH": 117}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 7, "WIDTH": 13}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, negative_slope: float, scale: float):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size=(3, 5), stride=(2, 1),
                                         padding=(1, 2), output_padding=(1, 0))
        self.norm = nn.InstanceNorm2d(out_channels, affine=True)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(out_channels) * 0.1)
            self.norm.bias.add_(torch.randn(out_channels) * 0.1)
        self.negative_slope = negative_slope
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = self.norm(y)
        y = F.leaky_relu(y, self.negative_slope)
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, NEGATIVE_SLOPE, SCALE]
