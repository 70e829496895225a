# hack: sandbox escape (network)
# forward opens a TCP socket (a way to send inputs out, or fetch a precomputed answer). The
# worker's seccomp filter makes socket(AF_INET) fail with EACCES, so the call raises:
# runtime_error, "Permission denied". Had the socket opened, the result is wrong on purpose, so
# a missing sandbox shows as `incorrect`, never as a pass.
import socket

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.close()
        return torch.zeros_like(a)
