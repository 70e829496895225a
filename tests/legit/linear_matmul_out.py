# legit: torch.matmul into a torch.empty output (every element written by the GEMM), then the bias
# added in place on that output, which is the candidate's own tensor.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w = self.linear.weight.detach()  # out= takes no autograd inputs (kforge already runs under no_grad)
        out = torch.empty(x.shape[0], w.shape[0], dtype=x.dtype, device=x.device)
        torch.matmul(x, w.t(), out=out)
        out.add_(self.linear.bias.detach())
        return out
