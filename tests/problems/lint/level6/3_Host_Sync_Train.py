"""Lint test problem (training): a step whose host waits for the GPU between its kernels, as
`.item()` would (the lint's shape pass runs on meta tensors, where `.item()` cannot), so queueing
it waits for the GPU: `host-bound` on a GPU, as a synchronisation, however much GPU work it holds."""
import torch
import torch.nn as nn

mode = "train"

ROWS = 8192
FEATURES = 4096
cpu_sizes = {"ROWS": 16, "FEATURES": 32}
extra_sizes = [{"ROWS": 4099}]
cpu_extra_sizes = [{"ROWS": 9}]


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features, features) * features ** -0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x @ self.weight
        peak = y.abs().amax()
        if y.is_cuda:
            torch.cuda.current_stream().synchronize()  # the host waits here for the GEMM
        return y / peak


def get_inputs():
    return [torch.randn(ROWS, FEATURES)]


def get_init_inputs():
    return [FEATURES]
