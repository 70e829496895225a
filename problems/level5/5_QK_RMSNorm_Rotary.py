"""Per-head RMSNorm of the queries and keys followed by rotary position embedding (Qwen3-style
QK-norm, half-split "rotate_half" RoPE with theta 1e6). q is [tokens, 32 * 128] and k is
[tokens, 8 * 128] as they leave the QKV projection; positions are int64 in [0, MAX_POS) (a batch
of prefill chunks from many sequences, so any position can appear). cos/sin come from a
precomputed [MAX_POS, 128] table (cos | sin), as serving engines keep it. Returns
(q [tokens, 32, 128], k [tokens, 8, 128]).
Precision: bf16 in and out; the normalisation and the rotation are computed in fp32 from the
bf16 inputs and the table (which the harness casts to bf16, as engines store it) and rounded
once at the end, as a fused kernel does.
"""
import torch
import torch.nn as nn

# bf16: the q/k activations between the QKV GEMM and attention are bf16 in serving engines; the
# kernel is memory-bound, so the bf16 bytes are what it must minimise.
precision = "bf16"

TOKENS = 16384
Q_HEADS = 32
KV_HEADS = 8
HEAD_DIM = 128
MAX_POS = 32768
ROPE_THETA = 1000000.0
EPS = 1e-6

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 256, "MAX_POS": 4096}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 5003}]
cpu_extra_sizes = [{"TOKENS": 97}]


def norm_and_rotate(x: torch.Tensor, weight: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                    eps: float) -> torch.Tensor:
    """x: [tokens, heads, head_dim]; cos/sin: [tokens, 1, head_dim / 2]; fp32 math."""
    xf = x.float()
    xf = xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + eps) * weight.float()
    first, second = xf.chunk(2, dim=-1)
    return torch.cat([first * cos - second * sin, second * cos + first * sin], dim=-1).to(x.dtype)


class Model(nn.Module):
    def __init__(self, head_dim: int, max_pos: int, theta: float, eps: float):
        super().__init__()
        self.head_dim, self.eps = head_dim, eps
        # Trained QK-norm gains are not all ones; start them around one.
        self.q_norm = nn.Parameter(1.0 + 0.1 * torch.randn(head_dim))
        self.k_norm = nn.Parameter(1.0 + 0.1 * torch.randn(head_dim))
        inv_freq = 1.0 / theta ** (torch.arange(0, head_dim, 2) / head_dim)
        angles = torch.arange(max_pos).unsqueeze(1) * inv_freq.unsqueeze(0)  # [max_pos, head_dim / 2]
        self.register_buffer("cos_sin", torch.cat([angles.cos(), angles.sin()], dim=-1), persistent=False)

    def forward(self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor):
        tokens, half = q.shape[0], self.head_dim // 2
        table = self.cos_sin[positions].float().unsqueeze(1)  # [tokens, 1, head_dim]
        cos, sin = table[..., :half], table[..., half:]
        q_out = norm_and_rotate(q.view(tokens, -1, self.head_dim), self.q_norm, cos, sin, self.eps)
        k_out = norm_and_rotate(k.view(tokens, -1, self.head_dim), self.k_norm, cos, sin, self.eps)
        return q_out, k_out


def get_inputs():
    # Projection outputs: unit scale with a per-channel spread, as real q/k carry.
    q = torch.randn(TOKENS, Q_HEADS * HEAD_DIM) * (0.5 + torch.rand(Q_HEADS * HEAD_DIM))
    k = torch.randn(TOKENS, KV_HEADS * HEAD_DIM) * (0.5 + torch.rand(KV_HEADS * HEAD_DIM))
    positions = torch.randint(0, MAX_POS, (TOKENS,))
    return [q, k, positions]


def get_init_inputs():
    return [HEAD_DIM, MAX_POS, ROPE_THETA, EPS]
