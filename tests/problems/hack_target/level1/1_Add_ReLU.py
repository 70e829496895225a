"""Test problem for the adversarial and legit corpora: relu(a + b) on two N x N fp32 inputs.
8192 x 8192 (256 MiB per input, about 0.2 ms on an H200) on the GPU, so a skipped or hidden
computation shows in the timing; 256 x 256 on the CPU."""
import torch
import torch.nn as nn

N = 8192

cpu_sizes = {"N": 256}

# Other shapes a correct candidate must handle (kforge runs one more trial at each): one past the
# benchmark size, so a kernel that assumes it is caught.
extra_sizes = [{"N": 8193}]
cpu_extra_sizes = [{"N": 257}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
