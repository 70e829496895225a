"""Mean cross-entropy loss of logits (BATCH x CLASSES) against int64 class targets; scalar output."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 131072
CLASSES = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8192, "CLASSES": 1000}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 65537, "CLASSES": 3001}]
cpu_extra_sizes = [{"BATCH": 2049, "CLASSES": 999}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(predictions, targets)


def get_inputs():
    predictions = torch.randn(BATCH, CLASSES)
    targets = torch.randint(0, CLASSES, (BATCH,))
    return [predictions, targets]


def get_init_inputs():
    return []
