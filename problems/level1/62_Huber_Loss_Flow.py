"""Per-pixel Huber loss (delta 1.0) of a predicted optical-flow field against the target,
summed over the two flow components: input N x 2 x H x W, output N x H x W."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 128
HEIGHT = 1024
WIDTH = 1536
DELTA = 1.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "HEIGHT": 256, "WIDTH": 384}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 1001, "WIDTH": 1531}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 97, "WIDTH": 131}]


class Model(nn.Module):
    def __init__(self, delta: float):
        super().__init__()
        self.delta = delta

    def forward(self, flow_pred: torch.Tensor, flow_true: torch.Tensor) -> torch.Tensor:
        loss = F.huber_loss(flow_pred, flow_true, reduction="none", delta=self.delta)
        return loss.sum(dim=1)


def get_inputs():
    flow_true = torch.randn(BATCH, 2, HEIGHT, WIDTH).mul_(4.0)
    # Errors of a few pixels at most, with a per-sample level: both the quadratic (|d| < delta)
    # and the linear branch of the loss are exercised.
    noise = torch.rand(BATCH, 1, 1, 1).mul_(2.0).add_(0.2)
    flow_pred = torch.randn(BATCH, 2, HEIGHT, WIDTH).mul_(noise).add_(flow_true)
    return [flow_pred, flow_true]


def get_init_inputs():
    return [DELTA]
