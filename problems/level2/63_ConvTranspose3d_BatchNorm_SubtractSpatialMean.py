"""3D transposed convolution (stride 2), BatchNorm3d with batch statistics (training mode), then
subtraction of each (sample, channel) spatial mean."""
import torch
import torch.nn as nn

BATCH = 32
IN_CHANNELS = 32
OUT_CHANNELS = 32
DEPTH = 16
HEIGHT = 32
WIDTH = 32
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "DEPTH": 13, "HEIGHT": 31, "WIDTH": 29}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 5, "HEIGHT": 7, "WIDTH": 5}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2,
                                         padding=1, output_padding=1)
        self.bn = nn.BatchNorm3d(out_channels)
        with torch.no_grad():
            self.bn.weight.add_(torch.randn(out_channels) * 0.1)
            self.bn.bias.add_(torch.randn(out_channels) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = self.bn(y)
        return y - y.mean(dim=(2, 3, 4), keepdim=True)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
