"""Llama-style attention sublayer: RMSNorm, grouped-query attention (NUM_HEADS query heads sharing
NUM_KV_HEADS key/value heads) with rotary position embeddings (rotate-half form, cos/sin tables
precomputed as buffers), causal softmax attention via scaled_dot_product_attention, output
projection and the residual add. Output (B, T, D)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4
SEQ_LEN = 1024
D_MODEL = 2048
NUM_HEADS = 16
NUM_KV_HEADS = 4
MAX_SEQ_LEN = 2048
ROPE_BASE = 10000.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 541}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37}]


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


class Model(nn.Module):
    def __init__(self, d_model: int, num_heads: int, num_kv_heads: int, max_seq_len: int, rope_base: float):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = d_model // num_heads
        self.norm_weight = nn.Parameter(torch.ones(d_model))
        self.wq = nn.Linear(d_model, num_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(num_heads * self.head_dim, d_model, bias=False)
        with torch.no_grad():
            # Query/key weights scaled up so the scores spread (std ~1.3) as in a trained model.
            self.wq.weight.mul_(2.0)
            self.wk.weight.mul_(2.0)
        inv_freq = 1.0 / rope_base ** (torch.arange(0, self.head_dim, 2) / self.head_dim)
        angles = torch.outer(torch.arange(max_seq_len), inv_freq)  # (max_seq_len, head_dim/2)
        angles = torch.cat([angles, angles], dim=-1)
        self.register_buffer("cos", angles.cos())
        self.register_buffer("sin", angles.sin())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        hn = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * self.norm_weight
        q = self.wq(hn).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.wk(hn).view(b, t, self.num_kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(hn).view(b, t, self.num_kv_heads, self.head_dim).transpose(1, 2)
        cos, sin = self.cos[:t], self.sin[:t]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        group = self.num_heads // self.num_kv_heads
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return x + self.wo(y.transpose(1, 2).reshape(b, t, c))


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, D_MODEL)
    return [x]


def get_init_inputs():
    return [D_MODEL, NUM_HEADS, NUM_KV_HEADS, MAX_SEQ_LEN, ROPE_BASE]
