"""One decode step of grouped-query attention against a KV cache. Each of 64 sequences has one
new query token (32 heads, head_dim 128) that attends over the first cache_lens[b] positions of
its cache (8 KV heads); cache_lens is int64, each in [1, MAX_LEN], and the positions past it hold
stale values that must not be read into the result. Cache layout [batch, max_len, kv_heads,
head_dim] as in flash_attn_with_kvcache; output [batch, 32, 128].
Precision: bf16 (q and the cache in bf16; scores and softmax in fp32, as a split-KV decode kernel
accumulates them).
"""
import torch
import torch.nn as nn

# bf16: the KV cache of a serving engine is stored in bf16 (or lower); decode is bound by reading
# it, so the cache dtype is what sets the speed of light here.
precision = "bf16"

BATCH = 64
MAX_LEN = 4096
Q_HEADS = 32
KV_HEADS = 8
HEAD_DIM = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "MAX_LEN": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29}]
cpu_extra_sizes = [{"BATCH": 5}]


class Model(nn.Module):
    def __init__(self, max_len: int, head_dim: int):
        super().__init__()
        self.scale = head_dim ** -0.5
        self.register_buffer("positions", torch.arange(max_len), persistent=False)

    def forward(self, q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                cache_lens: torch.Tensor) -> torch.Tensor:
        b, hq, d = q.shape
        length, hkv = k_cache.shape[1], k_cache.shape[2]
        qg = q.reshape(b, hkv, hq // hkv, d).float() * self.scale  # [b, hkv, group, d]
        keys = k_cache.float().permute(0, 2, 3, 1)  # [b, hkv, d, len]
        scores = torch.matmul(qg, keys)  # [b, hkv, group, len]
        stale = self.positions[:length].unsqueeze(0) >= cache_lens.unsqueeze(1)  # [b, len]
        scores.masked_fill_(stale[:, None, None, :], float("-inf"))
        probs = torch.softmax(scores, dim=-1).to(v_cache.dtype)
        out = torch.matmul(probs, v_cache.transpose(1, 2))  # [b, hkv, group, d]
        return out.reshape(b, hq, d)


def get_inputs():
    # Score std 2 (queries at twice unit scale): attention concentrates on a few dozen positions.
    q = torch.randn(BATCH, Q_HEADS, HEAD_DIM) * 2.0
    k_cache = torch.randn(BATCH, MAX_LEN, KV_HEADS, HEAD_DIM)
    v_cache = torch.randn(BATCH, MAX_LEN, KV_HEADS, HEAD_DIM)
    cache_lens = torch.randint(1, MAX_LEN + 1, (BATCH,))
    return [q, k_cache, v_cache, cache_lens]


def get_init_inputs():
    return [MAX_LEN, HEAD_DIM]
