"""Dense SwiGLU feed-forward block of a Llama-3-70B layer: a prefill chunk of 1536 tokens of
width 8192, one fused gate/up GEMM (8192 -> 2 x 28672), SiLU(gate) * up, and the down GEMM
(28672 -> 8192), no biases. Output [tokens, 8192].
Precision: bf16. GEMMs in bf16 with fp32 accumulation; SiLU(gate) * up is computed in fp32 from
the bf16 GEMM output and rounded once to bf16 for the down GEMM, as a fused activation does.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: dense LLM MLPs are served with bf16 weights and activations (fp8 being the other option);
# here the GEMMs are about 2.2 TFLOP, so bf16 tensor-core throughput sets the pace.
precision = "bf16"

TOKENS = 1536
HIDDEN = 8192
FFN = 28672

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "HIDDEN": 512, "FFN": 1792}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 701}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, hidden: int, ffn: int):
        super().__init__()
        # gate/up of unit variance; the down projection at half that scale, as a residual branch's
        # output is small next to the stream it is added to (output RMS about 0.3).
        self.w_gate_up = nn.Parameter(torch.randn(2 * ffn, hidden).mul_(hidden ** -0.5))
        self.w_down = nn.Parameter(torch.randn(hidden, ffn).mul_(0.5 * ffn ** -0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate, up = (x @ self.w_gate_up.t()).chunk(2, dim=-1)
        h = (F.silu(gate.float()) * up.float()).to(x.dtype)
        return h @ self.w_down.t()


def get_inputs():
    x = torch.randn(TOKENS, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN]
