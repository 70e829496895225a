"""Training step of one pre-norm decoder block (Llama style, TinyLlama-1.1B widths with full
multi-head attention): RMSNorm -> fused QKV projection (2048 -> 3 x 2048, no bias) -> causal
scaled_dot_product_attention over 16 heads of 128 -> output projection -> residual add; then
RMSNorm -> SwiGLU MLP (fused gate/up 2048 -> 2 x 5632, SiLU(gate) * up, down 5632 -> 2048) ->
residual add. x is the residual stream [batch, seq, 2048] (4 sequences of 2048 tokens); returns
the new residual stream [batch, seq, 2048]; kforge drives backward with a random upstream
gradient of that shape.
Compared: the output, the gradient of x and the gradients of all six parameters (two RMSNorm
gains, W_qkv, W_o, W_gate_up, W_down).
Why it matters: this block is the unit of LLM training; its step is dominated by four GEMMs
forward and eight backward plus attention, with the norms, SwiGLU and residual adds as memory
passes that a fused implementation folds into the GEMMs' prologues and epilogues.
Sized so the GPU work outweighs the host's: with 2 sequences, queueing a step took 3.93 ms of
host time against 3.80 ms of GPU work on the H200 (lint rule host-bound; docs/benchmarks.md,
session 22).
Precision: bf16 weights, activations and gradients. RMSNorm statistics and the normalisation are
computed in fp32 and rounded once; SiLU(gate) * up is computed in fp32 from the bf16 GEMM
outputs and rounded once; GEMMs and attention accumulate in fp32.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: decoder blocks are trained in bf16 mixed precision (fp32 statistics inside the norms).
precision = "bf16"
mode = "train"

BATCH = 4
SEQ_LEN = 2048
HIDDEN = 2048
HEADS = 16
FFN = 5632
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 64, "HIDDEN": 128, "HEADS": 4, "FFN": 352}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 1021}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37}]


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    xf = x.float()
    normed = xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + eps)
    return (normed * weight.float()).to(x.dtype)


class Model(nn.Module):
    def __init__(self, hidden: int, heads: int, ffn: int, eps: float):
        super().__init__()
        self.heads, self.eps = heads, eps
        self.attn_norm = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))
        w_qkv = torch.randn(3 * hidden, hidden) * hidden ** -0.5
        w_qkv[:hidden] *= 2.0  # queries at twice unit scale: peaked attention, as trained
        self.w_qkv = nn.Parameter(w_qkv)
        # Output projections at half unit scale: a residual branch is small next to the stream.
        self.w_o = nn.Parameter(torch.randn(hidden, hidden) * (0.5 * hidden ** -0.5))
        self.mlp_norm = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))
        self.w_gate_up = nn.Parameter(torch.randn(2 * ffn, hidden) * hidden ** -0.5)
        self.w_down = nn.Parameter(torch.randn(hidden, ffn) * (0.5 * ffn ** -0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, e = x.shape
        h = self.heads
        qkv = rms_norm(x, self.attn_norm, self.eps) @ self.w_qkv.t()
        q, k, v = qkv.view(b, s, 3, h, e // h).permute(2, 0, 3, 1, 4).unbind(0)  # each [b, h, s, d]
        attn = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + attn.transpose(1, 2).reshape(b, s, e) @ self.w_o.t()
        gate, up = (rms_norm(x, self.mlp_norm, self.eps) @ self.w_gate_up.t()).chunk(2, dim=-1)
        act = (F.silu(gate.float()) * up.float()).to(x.dtype)
        return x + act @ self.w_down.t()


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, HEADS, FFN, EPS]
