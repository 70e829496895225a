"""3D transposed convolution (stride 2, upsamples by 2), BatchNorm3d with batch statistics (training
mode), then 2x2x2 average pooling back to the input resolution."""
import torch
import torch.nn as nn

BATCH = 24
IN_CHANNELS = 32
OUT_CHANNELS = 64
DEPTH = 16
HEIGHT = 32
WIDTH = 32
KERNEL_SIZE = 3
POOL = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "DEPTH": 11, "HEIGHT": 31, "WIDTH": 29}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 7, "WIDTH": 5}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool: int):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2,
                                         padding=kernel_size // 2, output_padding=1)
        self.bn = nn.BatchNorm3d(out_channels)
        with torch.no_grad():
            self.bn.weight.add_(torch.randn(out_channels) * 0.1)
            self.bn.bias.add_(torch.randn(out_channels) * 0.1)
        self.pool = nn.AvgPool3d(pool)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = self.bn(y)
        return self.pool(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, POOL]
