# legit: relu(a + b), after writing and reading back a scratch file through tempfile (TMPDIR is
# the worker's scratch folder, where writes are allowed): the sandbox does not get in the way of
# a candidate that keeps its temporary files where it should.
import tempfile

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        with tempfile.NamedTemporaryFile("w+") as f:
            f.write("scratch")
            f.flush()
            f.seek(0)
            assert f.read() == "scratch"
        return torch.relu(a + b)
