"""GPT-2 style causal multi-head self-attention written out: one fused QKV projection, scores
Q K^T / sqrt(d_head), future positions masked to -inf with a lower-triangular buffer, softmax,
weighted sum of V, heads merged and an output projection."""
import math

import torch
import torch.nn as nn

BATCH = 32
SEQ_LEN = 512
EMBED_DIM = 768
NUM_HEADS = 12
MAX_SEQ_LEN = 1024  # size of the causal-mask buffer

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 17, "SEQ_LEN": 397}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37}]


class Model(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, max_seq_len: int):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        with torch.no_grad():
            # Query and key rows scaled up so the scores spread (std ~1.3) as in a trained model;
            # with the default init the softmax is close to a plain running mean of V.
            self.qkv.weight[: 2 * embed_dim].mul_(2.0)
        causal = torch.tril(torch.ones(max_seq_len, max_seq_len, dtype=torch.bool))
        self.register_buffer("causal", causal.view(1, 1, max_seq_len, max_seq_len))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        d = c // self.num_heads
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.num_heads, d).transpose(1, 2)  # (B, heads, T, d)
        k = k.view(b, t, self.num_heads, d).transpose(1, 2)
        v = v.view(b, t, self.num_heads, d).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d))
        scores = scores.masked_fill(~self.causal[:, :, :t, :t], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        y = (weights @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.out_proj(y)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, EMBED_DIM)
    return [x]


def get_init_inputs():
    return [EMBED_DIM, NUM_HEADS, MAX_SEQ_LEN]
