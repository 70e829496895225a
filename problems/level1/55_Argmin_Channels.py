"""Index of the minimum over the channel dimension (dim=1) of an NCHW score map (int64 output of
shape N x H x W), e.g. picking the nearest of 80 prototypes per pixel."""
import torch
import torch.nn as nn

BATCH = 64
CHANNELS = 80
HEIGHT = 512
WIDTH = 512

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "HEIGHT": 96, "WIDTH": 96}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "CHANNELS": 77, "HEIGHT": 479, "WIDTH": 511}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 37, "HEIGHT": 61, "WIDTH": 67}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmin(x, dim=self.dim)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [1]
