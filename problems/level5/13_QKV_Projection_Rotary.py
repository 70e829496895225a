"""Fused QKV projection with bias followed by rotary position embedding on q and k (interleaved
pairs (2i, 2i+1), as Meta's Llama reference code and DeepSeek apply it; theta 500000). 16384
tokens of width 4096 from 8 prefill chunks of 2048 tokens, each chunk continuing its sequence
at its own offset (int64 positions below MAX_POS); 32 query heads and 8 key/value heads of 128.
W_qkv is [(32 + 2 * 8) * 128, 4096] with a bias (Qwen2-style). cos/sin come from a precomputed
[MAX_POS, 128] table (cos | sin). Returns (q [tokens, 32, 128], k [tokens, 8, 128],
v [tokens, 8, 128]).
Precision: bf16. The projection is a bf16 GEMM (fp32 accumulation, bias added, rounded to bf16);
the rotation is computed in fp32 from those bf16 values and the table (cast to bf16 by the
harness) and rounded once.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: the QKV GEMM runs on bf16 weights and activations; fusing the rotation into its epilogue
# saves a read and write of q and k.
precision = "bf16"

TOKENS = 16384
CHUNK_TOKENS = 2048
HIDDEN = 4096
Q_HEADS = 32
KV_HEADS = 8
HEAD_DIM = 128
MAX_POS = 32768
ROPE_THETA = 500000.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 128, "CHUNK_TOKENS": 32, "HIDDEN": 1024, "MAX_POS": 4096}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 5997, "CHUNK_TOKENS": 1999}]
cpu_extra_sizes = [{"TOKENS": 111, "CHUNK_TOKENS": 37}]


def rotate_pairs(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """x: [tokens, heads, head_dim], pairs (2i, 2i+1) rotated by angle i; cos/sin [tokens, 1, head_dim / 2]."""
    pairs = x.float().unflatten(-1, (-1, 2))
    even, odd = pairs[..., 0], pairs[..., 1]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2).to(x.dtype)


class Model(nn.Module):
    def __init__(self, hidden: int, q_heads: int, kv_heads: int, head_dim: int, max_pos: int, theta: float):
        super().__init__()
        self.q_heads, self.kv_heads, self.head_dim = q_heads, kv_heads, head_dim
        out = (q_heads + 2 * kv_heads) * head_dim
        # Half of unit scale: q and k of about 0.5, as after trained projections.
        self.w_qkv = nn.Parameter(torch.randn(out, hidden).mul_(0.5 * hidden ** -0.5))
        self.b_qkv = nn.Parameter(torch.randn(out) * 0.1)
        inv_freq = 1.0 / theta ** (torch.arange(0, head_dim, 2) / head_dim)
        angles = torch.arange(max_pos).unsqueeze(1) * inv_freq.unsqueeze(0)  # [max_pos, head_dim / 2]
        self.register_buffer("cos_sin", torch.cat([angles.cos(), angles.sin()], dim=-1), persistent=False)

    def forward(self, x: torch.Tensor, positions: torch.Tensor):
        tokens, d = x.shape[0], self.head_dim
        qkv = F.linear(x, self.w_qkv, self.b_qkv)
        q, k, v = qkv.split([self.q_heads * d, self.kv_heads * d, self.kv_heads * d], dim=-1)
        table = self.cos_sin[positions].float().unsqueeze(1)
        cos, sin = table[..., : d // 2], table[..., d // 2:]
        q = rotate_pairs(q.view(tokens, self.q_heads, d), cos, sin)
        k = rotate_pairs(k.view(tokens, self.kv_heads, d), cos, sin)
        return q, k, v.reshape(tokens, self.kv_heads, d)


def get_inputs():
    x = torch.randn(TOKENS, HIDDEN)
    chunks = TOKENS // CHUNK_TOKENS
    starts = torch.randint(0, MAX_POS - CHUNK_TOKENS + 1, (chunks,))
    positions = (starts.unsqueeze(1) + torch.arange(CHUNK_TOKENS).unsqueeze(0)).flatten()
    return [x, positions]


def get_init_inputs():
    return [HIDDEN, Q_HEADS, KV_HEADS, HEAD_DIM, MAX_POS, ROPE_THETA]
