"""Classifier head: linear layer to 10000 classes, Hardtanh to [-2, 2], then LogSoftmax over the
classes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096
IN_FEATURES = 1280
NUM_CLASSES = 10000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 128, "IN_FEATURES": 640, "NUM_CLASSES": 2500}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 1531}]
cpu_extra_sizes = [{"BATCH": 77}]


class Model(nn.Module):
    def __init__(self, in_features: int, num_classes: int):
        super().__init__()
        self.linear = nn.Linear(in_features, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        y = F.hardtanh(y, -2.0, 2.0)
        return F.log_softmax(y, dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES) * 3.0
    return [x]


def get_init_inputs():
    return [IN_FEATURES, NUM_CLASSES]
