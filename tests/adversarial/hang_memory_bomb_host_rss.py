# hack: hang / memory bomb
# forward fills 256 MiB host tensors in a loop, keeping each, so the worker's resident memory grows
# by the second (up to 3 GiB here, so a machine without the bound is not put at risk). Run with
# --host-memory 2: kforge's watch sees the resident set pass 2 GiB and kills the worker before the
# kernel's OOM killer would pick a victim. runtime_error, "resident host memory".
import torch
import torch.nn as nn

BLOCKS = 12  # x 256 MiB


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        hoard = []
        for _ in range(BLOCKS):
            hoard.append(torch.ones(64 << 20, device="cpu"))  # written, so resident
        return torch.relu(a + b) + 0 * hoard[-1][0].to(a.device)
