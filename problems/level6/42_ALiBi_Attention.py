"""Training step of causal attention with ALiBi position biases (BLOOM, MPT): head h adds
-m_h * (i - j) to the score of query i and key j <= i, with slopes m_h = 2^(-8 (h + 1) / heads)
(heads a power of two), and keys j > i are masked. The bias is not an input: forward builds it
from integer position and head-index buffers, in fp32, and passes it (cast to the input dtype,
-inf above the diagonal) as the float attn_mask [1, heads, seq, seq] of
scaled_dot_product_attention. 16 heads of 128, 4 sequences of 2048 tokens. q, k, v are
[batch, heads, seq, 128]; returns [batch, heads, seq, 128]; kforge drives backward with a random
upstream gradient of that shape.
Compared: the output and the gradients of q, k and v. No parameters (the slopes are fixed).
Why it matters: ALiBi replaces position embeddings in several pretrained LLMs; unfused, the
training step materialises a [heads, seq, seq] bias and runs attention with an arbitrary additive
mask (no causal block skipping), while the bias is a linear function of i - j that a kernel can
compute in registers, skipping the masked blocks forward and backward.
Precision: bf16 inputs, output and gradients; the bias is computed in fp32 and rounded to bf16
once (as it is handed to the attention kernel); scores, softmax and accumulation in fp32 inside
the fused kernel.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: ALiBi models are trained on bf16 activations.
precision = "bf16"
mode = "train"

BATCH = 4
HEADS = 16
SEQ_LEN = 2048
HEAD_DIM = 128
MAX_POS = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "HEADS": 4, "SEQ_LEN": 64, "MAX_POS": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 1531}]
cpu_extra_sizes = [{"BATCH": 2, "SEQ_LEN": 45}]


class Model(nn.Module):
    def __init__(self, heads: int, max_pos: int):
        super().__init__()
        # Integer buffers: the precision cast leaves them exact; the bias is computed from them.
        self.register_buffer("positions", torch.arange(max_pos), persistent=False)
        self.register_buffer("head_index", torch.arange(heads), persistent=False)

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        h, s = q.shape[1], q.shape[2]
        pos = self.positions[:s]
        distance = (pos.unsqueeze(1) - pos.unsqueeze(0)).float()  # [s, s]: i - j
        slopes = torch.exp2(-8.0 * (self.head_index[:h] + 1).float() / h)  # [h]
        bias = -slopes.view(h, 1, 1) * distance  # [h, s, s]
        bias = bias.masked_fill(distance < 0, float("-inf")).to(q.dtype)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias.unsqueeze(0))


def get_inputs():
    # Queries at twice unit scale: score std 2 on top of the distance penalty.
    q = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM) * 2.0
    k = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    v = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    return [q, k, v]


def get_init_inputs():
    return [HEADS, MAX_POS]
