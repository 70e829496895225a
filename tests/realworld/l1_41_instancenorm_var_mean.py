import torch
import torch.nn as nn

# Problem constants (copied from the reference)
BATCH = 160
CHANNELS = 64
HEIGHT = 256
WIDTH = 256
EPS = 1e-5


class ModelNew(nn.Module):
    """
    InstanceNorm2d written with torch.var_mean: one fused pass for the per-(n, c)
    statistics instead of separate mean and var kernels, then a single fused
    normalize + affine expression.
    """

    def __init__(self, channels: int, eps: float):
        super(ModelNew, self).__init__()
        # keep the same module so the parameters are created (and perturbed) exactly
        # like in the reference model
        self.norm = nn.InstanceNorm2d(channels, eps=eps, affine=True)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(channels) * 0.2)
            self.norm.bias.add_(torch.randn(channels) * 0.2)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        var, mean = torch.var_mean(x, dim=(2, 3), keepdim=True, unbiased=False)
        inv_std = torch.rsqrt(var + self.eps)
        w = self.norm.weight.view(1, -1, 1, 1)
        b = self.norm.bias.view(1, -1, 1, 1)
        return (x - mean) * inv_std * w + b


def get_inputs():
    shift = torch.randn(BATCH, CHANNELS, 1, 1) * 2.0
    scale = torch.rand(BATCH, CHANNELS, 1, 1) * 3.0 + 0.25
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * scale + shift
    return [x]


def get_init_inputs():
    return [CHANNELS, EPS]
