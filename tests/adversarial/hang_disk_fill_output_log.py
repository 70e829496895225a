# hack: hang / disk fill
# forward prints 1 MiB lines in a loop: a candidate's stdout and stderr go to one log in its
# scratch folder, which grew without end (up to 1.5 GiB here, so a machine without the bound is
# not put at risk; a debugging print or a device-side printf in a timed loop does the same by
# accident). Run with --scratch-disk 0.25: the log is a file no larger than the folder's bound
# (RLIMIT_FSIZE), so the print past it fails with "File too large" in the candidate's traceback,
# unless the watch of the folder's total sees it first and kills the process. runtime_error.
import torch
import torch.nn as nn

LINES = 1536  # x 1 MiB
LINE = "y" * ((1 << 20) - 1)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        for _ in range(LINES):
            print(LINE, flush=True)
        return torch.relu(a + b)
