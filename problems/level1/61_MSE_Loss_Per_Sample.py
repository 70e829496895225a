"""Mean squared error per sample: mse_loss(pred, target, reduction='none') averaged over the
8192 features of each row (output: one loss per sample)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 65536
FEATURES = 8192

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 20011, "FEATURES": 9001}]
cpu_extra_sizes = [{"BATCH": 77, "FEATURES": 1001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.mse_loss(predictions, targets, reduction="none").mean(dim=1)


def get_inputs():
    targets = torch.randn(BATCH, FEATURES)
    # Every sample has its own error level, so the per-sample losses spread over ~0.01 .. 2.6.
    noise = torch.rand(BATCH, 1).mul_(1.5).add_(0.1)
    predictions = torch.randn(BATCH, FEATURES).mul_(noise).add_(targets)
    return [predictions, targets]


def get_init_inputs():
    return []
