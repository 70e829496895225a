# expect: correct
# CPU: inline_cpp_correct.py with the flags models copy (-O3 twice, -Wall): its host unit uses the
# precompiled torch header that -O2 made (src/build/precompiled_header.hpp).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.sizes() == b.sizes(), "add_relu: inputs must have the same shape");
    auto out = torch::empty_like(a);
    auto pa = a.contiguous(), pb = b.contiguous();
    const float* x = pa.data_ptr<float>();
    const float* y = pb.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t i = 0; i < a.numel(); ++i) {
        const float v = x[i] + y[i];
        o[i] = v < 0.0f ? 0.0f : v;
    }
    return out;
}
"""

_ext = load_inline(
    name="kforge_test_inline_cpp_add_relu_o3",
    cpp_sources=_CPP_SRC,
    functions=["add_relu"],
    extra_cflags=["-O3", "-Wall", "-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.add_relu(a, b)
