# legit: a torch.empty output filled block of rows by block of rows (a ragged last block
# included), so every element is written; the block size does not depend on the problem's size.
import torch
import torch.nn as nn

ROWS_PER_BLOCK = 100


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(a)
        rows = a.shape[0]
        for start in range(0, rows, ROWS_PER_BLOCK):
            stop = min(start + ROWS_PER_BLOCK, rows)
            torch.add(a[start:stop], b[start:stop], out=out[start:stop])
            out[start:stop].relu_()
        return out
