# hack: writing outside the sandbox through kforge's build service
# A load_inline build is made by the worker, outside the candidate's sandbox, which copies the
# built library into the candidate's scratch folder as extension-N/<name>.so. This candidate first
# fills its scratch folder with links named extension-0 to extension-63 pointing at its parent,
# the worker's own scratch folder, where its sandbox lets it write nothing: a copy that took an
# existing folder for its own would follow the link and write the candidate's library, under a
# name it chose, wherever the worker may write (its scratch folder, the build cache another
# candidate's build is served from). It then looks whether the file arrived, and says so by
# raising. The worker makes each copy's folder fresh and writes no file through a link: the
# library arrives in a folder of the candidate's own and the candidate's result is right: correct.
import os

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SCRATCH = os.getcwd()
TARGET = os.path.dirname(SCRATCH)
for i in range(64):
    try:
        os.symlink(TARGET, os.path.join(SCRATCH, f"extension-{i}"))
    except OSError:
        pass

SOURCE = """
#include <torch/extension.h>
torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) { return torch::relu(a + b); }
"""
try:
    module = load_inline(name="planted_by_candidate", cpp_sources=SOURCE, functions=["add_relu"])
except Exception:  # a build refused: torch's own ops below
    module = None
PLANTED = os.path.exists(os.path.join(TARGET, "planted_by_candidate.so"))


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if PLANTED:
            raise RuntimeError(f"REACHED: the worker wrote {TARGET}/planted_by_candidate.so through a link")
        return module.add_relu(a, b) if module is not None else torch.relu(a + b)
