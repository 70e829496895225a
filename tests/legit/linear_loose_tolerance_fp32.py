# honest: nn.Linear as x @ W^T + b in fp32 with a different operation order (matmul, then an
# in-place bias add), evaluated with atol = rtol = 1e-2 like the adversarial fp16 case next to it
# in ../adversarial: its error against the fp64 reference is fp32's, so the precision check passes.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x @ self.linear.weight.t()
        y += self.linear.bias
        return y
