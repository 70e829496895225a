"""Convolutional LSTM layer unrolled over time: at every step one 3x3 convolution of the
concatenated [input frame, hidden state] produces the four gate maps (input, forget, output,
candidate); c = f*c + i*tanh(g), h = o*tanh(c). Starts from a given (h0, c0); returns the final
hidden state (B, HIDDEN_CHANNELS, H, W)."""
import torch
import torch.nn as nn

BATCH = 16
SEQ_LEN = 8
IN_CHANNELS = 32
HIDDEN_CHANNELS = 64
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 4, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 9, "SEQ_LEN": 5, "HEIGHT": 51, "WIDTH": 57}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 3, "HEIGHT": 13, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, hidden_channels: int, kernel_size: int):
        super().__init__()
        self.gates = nn.Conv2d(in_channels + hidden_channels, 4 * hidden_channels, kernel_size,
                               padding=kernel_size // 2)

    def forward(self, frames: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor) -> torch.Tensor:
        h, c = h0, c0
        for t in range(frames.shape[1]):
            i, f, o, g = self.gates(torch.cat([frames[:, t], h], dim=1)).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return h


def get_inputs():
    frames = torch.randn(BATCH, SEQ_LEN, IN_CHANNELS, HEIGHT, WIDTH)
    h0 = torch.randn(BATCH, HIDDEN_CHANNELS, HEIGHT, WIDTH) * 0.5
    c0 = torch.randn(BATCH, HIDDEN_CHANNELS, HEIGHT, WIDTH) * 0.5
    return [frames, h0, c0]


def get_init_inputs():
    return [IN_CHANNELS, HIDDEN_CHANNELS, KERNEL_SIZE]
