# hack: hang / disk fill
# forward writes 32 MiB files into its working directory (its scratch folder, the one place its
# process may write) until a write fails, none of them large, so a bound on one file's size does
# not stop it: on a shared disk this fills the store's, the build cache's and every other
# worker's filesystem (up to 1.5 GiB here, so a machine without the bound is not put at risk). Run
# with --scratch-disk 0.25: the reference process's watch sees the folder pass 0.25 GiB and kills
# the candidate's process. runtime_error, "scratch folder held".
import os

import torch
import torch.nn as nn

FILES = 48  # x 32 MiB
BLOCK = b"x" * (32 << 20)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        for i in range(FILES):
            with open(f"fill-{self.calls}-{i}.bin", "wb") as f:
                f.write(BLOCK)
        self.calls += 1
        return torch.relu(a + b)
