# expect: correct (tests/integration/cpu_inline_build_test.cpp: its build takes longer than the corpus's timeout)
# CPU: the way many model-written candidates build: C++ source written to a file at import time,
# built with torch.utils.cpp_extension.load(sources=[...]) into a build_directory of their own
# choosing (/tmp/..., where the candidate's sandbox lets it write nothing). kforge builds the files
# through its own cache, as it does load_inline's texts, and the build_directory is not used.
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load

_SOURCE = r"""
#include <torch/extension.h>

torch::Tensor add_relu_from_disk(torch::Tensor a, torch::Tensor b) {
    return torch::clamp_min(a + b, 0);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("add_relu_from_disk", &add_relu_from_disk, "relu(a + b)");
}
"""

_folder = tempfile.mkdtemp()
_path = os.path.join(_folder, "add_relu_from_disk.cpp")
with open(_path, "w") as f:
    f.write(_SOURCE)

_ext = load(
    name="kforge_test_load_from_disk",
    sources=[_path],
    extra_cflags=["-O2"],
    build_directory="/tmp/cuda_extensions",
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.add_relu_from_disk(a, b)
