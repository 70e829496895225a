"""Training step of the conv -> BatchNorm -> SiLU unit of YOLOv5/v8 and EfficientNet, at the
shape of ResNet-50's first-stage 3x3 convolution on 224 x 224 images: 256 images, 64 -> 64
channels at 56 x 56, 3x3 kernel, padding 1, no conv bias; BatchNorm2d in training mode (batch
statistics over N, H, W, biased variance, eps 1e-5; the running statistics are updated as a side
effect and do not affect the result). x [256, 64, 56, 56], conv weight [64, 64, 3, 3], BN gain
and bias [64]. Returns SiLU(BN(conv(x))) [256, 64, 56, 56].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of the conv weight, the BN gain and the BN bias.
Why it matters for training: BatchNorm in training mode cannot be folded into the convolution
as it is at inference; its backward needs two per-channel reductions over the whole batch
(sum of dy and of dy * x_hat) between the activation's derivative and the conv's data and weight
gradients, so an unfused step makes several passes over activations as large as the conv's output.
Why SiLU and not ResNet's ReLU: cuDNN runs this fp32 convolution in TF32 by PyTorch's default, and
a ReLU after it flips its mask wherever TF32's rounding crosses zero, so the reference's BN bias
gradient was off by several percent from an exact one (H200: an fp64 candidate passed the trials
and was 5.5% off the reference in a timed call). SiLU's derivative is continuous.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

BATCH = 256
IN_CHANNELS = 64
OUT_CHANNELS = 64
HEIGHT = 56
WIDTH = 56
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "IN_CHANNELS": 16, "OUT_CHANNELS": 32, "HEIGHT": 28, "WIDTH": 28}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 97, "HEIGHT": 53, "WIDTH": 47}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 23, "WIDTH": 19}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)
        # Move the affine parameters away from the trivial ones/zeros.
        with torch.no_grad():
            self.bn.weight.add_(torch.randn(out_channels) * 0.2)
            self.bn.bias.add_(torch.randn(out_channels) * 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # The module stays in training mode, so batch statistics are used.
        return F.silu(self.bn(self.conv(x)))


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
