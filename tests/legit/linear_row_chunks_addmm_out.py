# legit: the batch split into row blocks (a ragged last one included), each written by
# torch.addmm(..., out=out[rows]) into one preallocated output, so every row is computed.
import torch
import torch.nn as nn

ROWS_PER_BLOCK = 1000


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w_t = self.linear.weight.detach().t()  # out= takes no autograd inputs
        bias = self.linear.bias.detach()
        rows = x.shape[0]
        out = torch.empty(rows, w_t.shape[1], dtype=x.dtype, device=x.device)
        for start in range(0, rows, ROWS_PER_BLOCK):
            stop = min(start + ROWS_PER_BLOCK, rows)
            torch.addmm(bias, x[start:stop], w_t, out=out[start:stop])
        return out
