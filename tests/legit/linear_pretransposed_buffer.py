# legit: state computed once in __init__ from the parameters only (never from inputs): the weight
# transposed to [in, out] and made contiguous, kept as a buffer, then x @ W^T + b by addmm.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)  # same creation order as the reference
        self.register_buffer("weight_t", self.linear.weight.detach().t().contiguous())
        self.register_buffer("bias_c", self.linear.bias.detach().clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.addmm(self.bias_c, x, self.weight_t)
