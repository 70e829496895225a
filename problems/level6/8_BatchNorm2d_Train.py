"""Training step of a BatchNorm2d in training mode, at ResNet-50's first bottleneck stage on
ImageNet: NCHW activations [256, 256, 56, 56] (batch 256, 256 channels, 822 MB in fp32), each
channel normalised with the batch's own mean and biased variance over N, H and W (eps 1e-5),
then scaled and shifted by a learned per-channel weight and bias. Forward returns the output
[256, 256, 56, 56] (the running statistics are updated as a side effect and affect nothing).
Compared: the gradient of x and of the weight and bias [256]. The backward needs two
per-channel reductions over 802,816 elements each (sum(grad_out) and sum(grad_out * x_hat))
before it can write grad_x, so it reads grad_out and x twice in eager PyTorch; every BN layer
of every CNN training step runs this pair.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 256
CHANNELS = 256
HEIGHT = 56
WIDTH = 56

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "CHANNELS": 32, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 123, "HEIGHT": 57, "WIDTH": 55}]
cpu_extra_sizes = [{"BATCH": 5, "HEIGHT": 13, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        # Affine parameters away from the trivial ones/zeros, as after some training.
        with torch.no_grad():
            self.bn.weight.add_(0.3 * torch.randn(channels))
            self.bn.bias.add_(0.3 * torch.randn(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # The module stays in training mode: batch statistics normalise the output.
        return self.bn(x)


def get_inputs():
    # Post-convolution activations: each channel with its own offset and spread.
    shift = torch.randn(1, CHANNELS, 1, 1)
    scale = torch.rand(1, CHANNELS, 1, 1).mul_(2.0).add_(0.3)
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH).mul_(scale).add_(shift)
    return [x]


def get_init_inputs():
    return [CHANNELS]
