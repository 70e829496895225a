"""One decode step of DeepSeek-V3 multi-head latent attention with the up-projections absorbed.
The cache holds per position a 512-wide compressed latent c (shared by all 128 heads) and a
64-wide rotary key k_pe. Each of 64 sequences brings one query token, split per head into a
128-wide no-position part q_nope and a 64-wide rotary part q_pe. kv_b_proj ([128 * (128 + 128),
512], as in DeepSeek-V3) maps the latent to each head's key (W_uk) and value (W_uv); absorbed:
score = ((W_uk^T q_nope) . c + q_pe . k_pe) / sqrt(192), o = W_uv (sum_t p_t c_t). Cache length
per sequence is an int64 in [1, MAX_LEN]; positions past it hold stale values. Output
[batch, 128 heads, 128].
Precision: bf16. The absorbed query W_uk^T q_nope is rounded to bf16 (FlashMLA's input format:
the absorption is a separate GEMM in front of the attention kernel), and so is the latent output
sum_t p_t c_t before W_uv; scores and softmax in fp32.
"""
import torch
import torch.nn as nn

# bf16: DeepSeek-V3 serving keeps the latent cache and activations in bf16 (FlashMLA's input
# format); scores in fp32 as such a kernel accumulates them.
precision = "bf16"

BATCH = 64
MAX_LEN = 4096
HEADS = 128
NOPE_DIM = 128
ROPE_DIM = 64
V_DIM = 128
KV_RANK = 512

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "MAX_LEN": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29}]
cpu_extra_sizes = [{"BATCH": 3}]


class Model(nn.Module):
    def __init__(self, heads: int, nope_dim: int, rope_dim: int, v_dim: int, kv_rank: int, max_len: int):
        super().__init__()
        self.heads, self.nope_dim, self.v_dim = heads, nope_dim, v_dim
        self.kv_b_proj = nn.Parameter(torch.randn(heads * (nope_dim + v_dim), kv_rank) * kv_rank ** -0.5)
        self.scale = (nope_dim + rope_dim) ** -0.5
        self.register_buffer("positions", torch.arange(max_len), persistent=False)

    def forward(self, q_nope: torch.Tensor, q_pe: torch.Tensor, latent_cache: torch.Tensor,
                rope_cache: torch.Tensor, cache_lens: torch.Tensor) -> torch.Tensor:
        length = latent_cache.shape[1]
        w = self.kv_b_proj.view(self.heads, self.nope_dim + self.v_dim, -1)
        w_uk, w_uv = w[:, : self.nope_dim], w[:, self.nope_dim:]  # [heads, 128, 512] each
        # Absorb W_uk into the query: q_nope . (W_uk c) = (W_uk^T q_nope) . c; a GEMM of its own
        # whose output is in the input dtype (bf16), as the attention kernel takes it.
        q_latent = torch.einsum("bhd,hdc->bhc", q_nope, w_uk)  # [b, heads, 512]
        scores = torch.matmul(q_latent.float(), latent_cache.float().transpose(1, 2))  # [b, heads, len]
        scores += torch.matmul(q_pe.float(), rope_cache.float().transpose(1, 2))
        scores *= self.scale
        stale = self.positions[:length].unsqueeze(0) >= cache_lens.unsqueeze(1)  # [b, len]
        scores.masked_fill_(stale.unsqueeze(1), float("-inf"))
        probs = torch.softmax(scores, dim=-1).to(latent_cache.dtype)
        o_latent = torch.matmul(probs, latent_cache)  # [b, heads, 512]
        return torch.einsum("bhc,hvc->bhv", o_latent, w_uv)  # [b, heads, 128]


def get_inputs():
    # Queries at twice unit scale give score std about 2: attention on a few dozen positions.
    q_nope = torch.randn(BATCH, HEADS, NOPE_DIM) * 2.0
    q_pe = torch.randn(BATCH, HEADS, ROPE_DIM) * 2.0
    latent_cache = torch.randn(BATCH, MAX_LEN, KV_RANK)  # RMS-normalised latents: unit scale
    rope_cache = torch.randn(BATCH, MAX_LEN, ROPE_DIM)
    cache_lens = torch.randint(1, MAX_LEN + 1, (BATCH,))
    return [q_nope, q_pe, latent_cache, rope_cache, cache_lens]


def get_init_inputs():
    return [HEADS, NOPE_DIM, ROPE_DIM, V_DIM, KV_RANK, MAX_LEN]
