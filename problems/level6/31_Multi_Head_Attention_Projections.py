"""Training step of a GPT-2-style causal self-attention sublayer with its projections: a fused QKV
projection with bias (2048 -> 3 x 2048), 16 heads of width 128, causal scaled_dot_product_attention,
and the output projection with bias (2048 -> 2048). x is [batch, seq, 2048] (4 sequences of 2048
tokens); returns [batch, seq, 2048]; kforge drives backward with a random upstream gradient of
that shape.
Compared: the output, the gradient of x, and the gradients of all four parameters (W_qkv, b_qkv,
W_o, b_o).
Why it matters: this is the whole attention half of a transformer layer as a training step sees
it: six GEMM-shaped passes over the projections (forward, data gradient, weight gradient) around
attention's own forward and backward, plus the head split/merge transposes between them, which
a fused implementation writes once in the layout the next kernel reads.
Precision: bf16 weights, activations and gradients; the GEMMs accumulate in fp32 and round once,
attention keeps fp32 scores and softmax inside the fused kernel.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: transformer training runs its projections and attention in bf16 (fp32 master weights live
# in the optimizer, outside this step).
precision = "bf16"
mode = "train"

BATCH = 4
SEQ_LEN = 2048
EMBED = 2048
HEADS = 16

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 64, "EMBED": 128, "HEADS": 4}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 1537}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37}]


class Model(nn.Module):
    def __init__(self, embed: int, heads: int):
        super().__init__()
        self.heads = heads
        w_qkv = torch.randn(3 * embed, embed) * embed ** -0.5
        # Queries at twice unit scale (score std about 2), as trained attention is peaked.
        w_qkv[:embed] *= 2.0
        self.w_qkv = nn.Parameter(w_qkv)
        self.b_qkv = nn.Parameter(torch.randn(3 * embed) * 0.02)
        self.w_o = nn.Parameter(torch.randn(embed, embed) * embed ** -0.5)
        self.b_o = nn.Parameter(torch.randn(embed) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, e = x.shape
        h = self.heads
        qkv = F.linear(x, self.w_qkv, self.b_qkv)  # [b, s, 3e]
        q, k, v = qkv.view(b, s, 3, h, e // h).permute(2, 0, 3, 1, 4).unbind(0)  # each [b, h, s, d]
        attn = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        attn = attn.transpose(1, 2).reshape(b, s, e)
        return F.linear(attn, self.w_o, self.b_o)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, EMBED)
    return [x]


def get_init_inputs():
    return [EMBED, HEADS]
