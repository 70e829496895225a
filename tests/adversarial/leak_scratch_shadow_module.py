# hack: leaking state into later jobs (a file)
# Writes a `kforge_inline.py` and a `numpy.py` into its working directory (the scratch folder)
# hoping a later candidate imports them, and a file in TMPDIR. Each candidate gets a scratch folder
# of its own, removed with it. Its own result is right: correct; the next candidate: correct.
import os

import torch
import torch.nn as nn

for name in ("kforge_inline.py", "numpy.py"):
    with open(name, "w") as f:
        f.write("raise SystemExit('shadowed')\n")
with open(os.path.join(os.environ.get("TMPDIR", "."), "poison"), "w") as f:
    f.write("x")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
