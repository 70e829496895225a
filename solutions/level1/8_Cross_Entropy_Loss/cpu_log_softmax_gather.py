"""Mean cross entropy as -mean(log_softmax(logits)[i, target_i]) (plain PyTorch)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logp = F.log_softmax(predictions, dim=1)
        picked = logp.gather(1, targets.unsqueeze(1)).squeeze(1)
        return -picked.mean()
