"""Training step of the SwiGLU feed-forward block of Llama-3-8B: 2048 tokens of width 4096,
separate gate and up projections 4096 -> 14336, SiLU(gate) * up, and the down projection
14336 -> 4096, no biases (as Hugging Face's LlamaMLP). x [2048, 4096], W_gate and W_up
[14336, 4096], W_down [4096, 14336]. Returns [2048, 4096].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of W_gate, W_up and W_down.
Precision: bf16. GEMMs in bf16 with fp32 accumulation; SiLU(gate) * up is computed in fp32 from
the bf16 GEMM outputs and rounded once to bf16 for the down GEMM, as a fused activation does;
its backward runs through the same fp32 upcast.
Why it matters for training: the MLP holds about two thirds of a dense LLM's FLOPs, and its
backward (six GEMMs, plus the SwiGLU derivative over two 14336-wide activations) is the largest
single piece of a training step after attention.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"
# bf16: LLM pre-training and fine-tuning run their GEMMs in bf16 (fp32 master weights live in the
# optimizer); at about 2.2 TFLOP per step here, bf16 tensor-core throughput sets the pace.
precision = "bf16"

TOKENS = 2048
HIDDEN = 4096
FFN = 14336

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "HIDDEN": 256, "FFN": 896}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 1001}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, hidden: int, ffn: int):
        super().__init__()
        # gate/up of unit variance; the down projection at half that scale, as a residual
        # branch's output is small next to the stream it joins.
        self.w_gate = nn.Parameter(torch.randn(ffn, hidden).mul_(hidden ** -0.5))
        self.w_up = nn.Parameter(torch.randn(ffn, hidden).mul_(hidden ** -0.5))
        self.w_down = nn.Parameter(torch.randn(hidden, ffn).mul_(0.5 * ffn ** -0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate = x @ self.w_gate.t()
        up = x @ self.w_up.t()
        h = (F.silu(gate.float()) * up.float()).to(x.dtype)
        return h @ self.w_down.t()


def get_inputs():
    # Unit-scale hidden states, as the RMSNorm before the MLP hands them over.
    x = torch.randn(TOKENS, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN]
