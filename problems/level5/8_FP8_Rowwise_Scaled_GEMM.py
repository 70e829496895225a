"""FP8 GEMM with row-wise scaling (the recipe of FBGEMM / torchao "rowwise" fp8 inference):
activations quantised per token and weights per output channel to float8_e4m3fn, each row with
its own scale (amax / 448). out[m, n] = x_scale[m] * w_scale[n] * sum_k xq[m, k] * wq[n, k],
in bf16. Shapes of DeepSeek-V3's dense MLP up-projection: 4096 tokens, 7168 -> 18432.
The fp8 operands are created as fp8 (the harness keeps them so); the scales are ordinary floating
tensors and arrive in the evaluation precision. The reference dequantises to the evaluation dtype
(exact: every e4m3 value is a bf16 value) and multiplies there, so it also runs on a CPU; a
candidate is expected to use fp8 tensor cores.
Precision: bf16 (output and scales).
"""
import torch
import torch.nn as nn

# bf16: fp8 GEMMs in serving write bf16 outputs; the scales are applied to the fp32 accumulator
# in the epilogue. The fp8 inputs themselves are not cast.
precision = "bf16"

TOKENS = 4096
IN_FEATURES = 7168
OUT_FEATURES = 18432
FP8_MAX = 448.0  # largest finite float8_e4m3fn

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 128, "IN_FEATURES": 1024, "OUT_FEATURES": 768}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 1531}]
cpu_extra_sizes = [{"TOKENS": 61}]


def quantise_rows(t: torch.Tensor):
    """Per-row scale amax / 448 and the fp8 tensor t / scale."""
    scale = t.abs().amax(dim=1, keepdim=True) / FP8_MAX
    return (t / scale).to(torch.float8_e4m3fn), scale


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        weight_fp8, weight_scale = quantise_rows(torch.randn(out_features, in_features) * in_features ** -0.5)
        self.register_buffer("weight_fp8", weight_fp8)  # [out, in], float8_e4m3fn
        self.register_buffer("weight_scale", weight_scale.squeeze(1))  # [out]

    def forward(self, x_fp8: torch.Tensor, x_scale: torch.Tensor) -> torch.Tensor:
        dtype = x_scale.dtype  # the evaluation precision
        acc = torch.matmul(x_fp8.to(dtype), self.weight_fp8.to(dtype).t())
        out = acc.float() * x_scale.float() * self.weight_scale.float().unsqueeze(0)
        return out.to(dtype)


def get_inputs():
    x = torch.randn(TOKENS, IN_FEATURES)
    # A few outlier channels, as LLM activations have; per-token scaling must absorb them.
    x[:, :: 97] *= 8.0
    x_fp8, x_scale = quantise_rows(x)
    return [x_fp8, x_scale]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
