"""GroupNorm: channels split into groups, each (sample, group) normalised over its channels and
H x W, followed by a learned per-channel scale and shift (NCHW input, 320 channels in 32 groups)."""
import torch
import torch.nn as nn

BATCH = 40
CHANNELS = 320
GROUPS = 32
HEIGHT = 224
WIDTH = 224
EPS = 1e-6

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "HEIGHT": 48, "WIDTH": 48}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 17, "HEIGHT": 199, "WIDTH": 187}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 29, "WIDTH": 37}]


class Model(nn.Module):
    def __init__(self, groups: int, channels: int, eps: float):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels, eps=eps)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(channels) * 0.2)
            self.norm.bias.add_(torch.randn(channels) * 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    shift = torch.randn(BATCH, CHANNELS, 1, 1)
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * 1.5 + shift
    return [x]


def get_init_inputs():
    return [GROUPS, CHANNELS, EPS]
