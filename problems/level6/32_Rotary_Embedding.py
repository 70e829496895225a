"""Training step of rotary position embedding (RoPE) applied to q and k, in the rotate-half
(GPT-NeoX / Hugging Face Llama) convention: dimension i of a head is paired with i + 64, and
    out = x * cos + rotate_half(x) * sin,   rotate_half([x1, x2]) = [-x2, x1].
Llama-3-8B layout: q is [batch, seq, 32, 128], k is [batch, seq, 8, 128]; 4 sequences of 4096
tokens. cos and sin are [seq, 128] tables (theta 500000, each frequency written twice, as
Hugging Face builds them), made in get_inputs(). Returns (q_rotated, k_rotated) of the inputs'
shapes; kforge drives backward with random upstream gradients of those shapes.
Compared: the two outputs and the gradients of q and k (grad_inputs = [0, 1]): the cos/sin
tables are constants of the position, which no training step differentiates.
Why it matters: RoPE sits between the QKV projection and attention in every Llama-family layer;
unfused, its forward and backward are a chain of elementwise kernels over the full q and k in
fp32 (about ten passes each way), pure memory traffic a single fused pass (or fusion into the
neighbouring GEMM or attention kernel) removes.
Precision: bf16 q, k, outputs and gradients; the tables are cast to bf16 by the harness; the
rotation is computed in fp32 and rounded once, as a fused rotary kernel does.
"""
import torch
import torch.nn as nn

# bf16: q and k are bf16 activations in LLM training; the rotation's fp32 arithmetic is internal.
precision = "bf16"
mode = "train"

BATCH = 4
SEQ_LEN = 4096
Q_HEADS = 32
KV_HEADS = 8
HEAD_DIM = 128
ROPE_THETA = 500000.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 64, "Q_HEADS": 4, "KV_HEADS": 2}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 2999}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37}]

# The inputs whose gradients are compared: q and k, not the cos/sin tables.
grad_inputs = [0, 1]


def rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """x: [batch, seq, heads, d]; cos/sin: [seq, 1, d] in fp32."""
    xf = x.float()
    x1, x2 = xf.chunk(2, dim=-1)
    rotated = torch.cat([-x2, x1], dim=-1)
    return (xf * cos + rotated * sin).to(x.dtype)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor):
        cos = cos.float().unsqueeze(1)
        sin = sin.float().unsqueeze(1)
        return rotate(q, cos, sin), rotate(k, cos, sin)


def get_inputs():
    q = torch.randn(BATCH, SEQ_LEN, Q_HEADS, HEAD_DIM)
    k = torch.randn(BATCH, SEQ_LEN, KV_HEADS, HEAD_DIM)
    inv_freq = 1.0 / ROPE_THETA ** (torch.arange(0, HEAD_DIM, 2) / HEAD_DIM)
    angles = torch.arange(SEQ_LEN).unsqueeze(1) * inv_freq.unsqueeze(0)  # [seq, d / 2]
    angles = torch.cat([angles, angles], dim=-1)  # [seq, d]
    return [q, k, angles.cos(), angles.sin()]


def get_init_inputs():
    return []
