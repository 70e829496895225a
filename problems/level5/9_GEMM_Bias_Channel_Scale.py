"""Linear layer with bias followed by a per-output-channel scale: out = (x @ W^T + b) * s, the
epilogue of a layer whose output channels carry a learned or folded scale (SmoothQuant-style
folding, layer scale, a weight-only-quantised layer's per-channel dequantisation). Shapes of
Qwen2.5-32B's MLP up/gate width: 6000 tokens (a non-tile-multiple batch), 5120 -> 27648.
Precision: bf16. The reference runs the GEMM with its bias in bf16 (fp32 accumulation), then
the scale as a second bf16 pass; a fused epilogue applies both to the fp32 accumulator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: the standard dtype of dense LLM linear layers; at about 1.7 TFLOP the GEMM runs on bf16
# tensor cores and the epilogue's extra passes over the 330 MB output are what fusion removes.
precision = "bf16"

TOKENS = 6000
IN_FEATURES = 5120
OUT_FEATURES = 27648

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 200, "IN_FEATURES": 1024, "OUT_FEATURES": 1536}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 2003}]
cpu_extra_sizes = [{"TOKENS": 77}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features).mul_(in_features ** -0.5))
        self.bias = nn.Parameter(torch.randn(out_features) * 0.2)
        self.channel_scale = nn.Parameter(0.5 + torch.rand(out_features))  # in [0.5, 1.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.weight, self.bias) * self.channel_scale


def get_inputs():
    x = torch.randn(TOKENS, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
