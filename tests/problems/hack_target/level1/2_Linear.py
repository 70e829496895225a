"""Test problem for the adversarial and legit corpora: y = x @ W^T + bias (nn.Linear), fp32.
batch 4096, 4096 -> 4096 on the GPU (a GEMM of about 1 ms with fp32 math); 64, 128 -> 128 on the CPU."""
import torch
import torch.nn as nn

BATCH = 4096
IN_FEATURES = 4096
OUT_FEATURES = 4096

cpu_sizes = {"BATCH": 64, "IN_FEATURES": 128, "OUT_FEATURES": 128}

# Other batch sizes a correct candidate must handle (the features fix the model's weights).
extra_sizes = [{"BATCH": 4095}]
cpu_extra_sizes = [{"BATCH": 63}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x)


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
