"""
Optimized cross-entropy loss.

F.cross_entropy goes through log_softmax + nll_loss, which materialises the full
log-probability matrix. We only need, per row, logsumexp(logits) - logit[target],
so we compute exactly that and average over the batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        # logsumexp is numerically stable (it subtracts the row max internally)
        lse = torch.logsumexp(predictions, dim=1)
        # pick the logit of the correct class for every sample
        picked = predictions.gather(1, targets.unsqueeze(1)).squeeze(1)
        loss = lse - picked
        return loss.mean()


BATCH = 131072
CLASSES = 4096


def get_inputs():
    predictions = torch.randn(BATCH, CLASSES)
    targets = torch.randint(0, CLASSES, (BATCH,))
    return [predictions, targets]


def get_init_inputs():
    return []
