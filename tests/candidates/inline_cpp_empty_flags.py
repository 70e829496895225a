# expect: correct
# CPU: load_inline with flags as KernelBench's worked example passes them (and models copy):
# extra_cflags=[""] and extra_ldflags=[""], plus two flags in one string ("-O2 -Wall"), and a flag
# given twice. torch's own build writes them into a shell command line, where an empty one
# vanishes and a spaced one splits; kforge's build must accept them the same way.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor add_relu_flags(torch::Tensor a, torch::Tensor b) {
    return torch::clamp_min(a + b, 0);
}
"""

_ext = load_inline(
    name="kforge_test_inline_cpp_empty_flags",
    cpp_sources=_CPP_SRC,
    functions=["add_relu_flags"],
    extra_cflags=["", "-O2 -Wall", "-O2"],
    extra_ldflags=[""],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.add_relu_flags(a, b)
