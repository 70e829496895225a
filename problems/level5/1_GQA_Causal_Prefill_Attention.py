"""Causal grouped-query attention over a prompt (prefill): 32 query heads share 8 key/value heads
(Llama-3-8B layout), head_dim 128, one 4096-token sequence. q is [batch, 32, seq, 128], k and v
are [batch, 8, seq, 128]; query head h reads key/value head h // 4. Output [batch, 32, seq, 128].
Precision: bf16. Scores and softmax are computed in fp32 and the probabilities rounded to the
input dtype before P @ V, which is what a FlashAttention kernel keeps in registers and feeds its
second matmul.
"""
import torch
import torch.nn as nn

# bf16: serving stacks run prefill attention on bf16 activations; the fp32 scores below keep the
# reference as exact as a fused kernel with fp32 accumulators, so such a kernel matches it.
precision = "bf16"

BATCH = 1
SEQ_LEN = 4096
Q_HEADS = 32
KV_HEADS = 8
HEAD_DIM = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"SEQ_LEN": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 2, "Q_HEADS": 12, "KV_HEADS": 3}]
cpu_extra_sizes = [{"BATCH": 3, "Q_HEADS": 4, "KV_HEADS": 1}]


class Model(nn.Module):
    def __init__(self, seq_len: int, head_dim: int):
        super().__init__()
        self.scale = head_dim ** -0.5
        # True where the key comes after the query (masked out).
        future = torch.ones(seq_len, seq_len, dtype=torch.bool).triu(1)
        self.register_buffer("future", future, persistent=False)

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        b, hq, s, d = q.shape
        hkv = k.shape[1]
        # [b, hkv, group, s, d]: the query heads of one group side by side over their shared K/V.
        qg = q.reshape(b, hkv, hq // hkv, s, d).float() * self.scale
        scores = torch.matmul(qg, k.float().unsqueeze(2).transpose(-1, -2))  # [b, hkv, group, s, s]
        scores.masked_fill_(self.future[:s, :s], float("-inf"))
        probs = torch.softmax(scores, dim=-1).to(v.dtype)
        out = torch.matmul(probs, v.unsqueeze(2))  # [b, hkv, group, s, d]
        return out.reshape(b, hq, s, d)


def get_inputs():
    # Queries at twice unit scale give score std 2: each query attends to tens of keys, as trained
    # models do, instead of averaging thousands of them into values near zero.
    q = torch.randn(BATCH, Q_HEADS, SEQ_LEN, HEAD_DIM) * 2.0
    k = torch.randn(BATCH, KV_HEADS, SEQ_LEN, HEAD_DIM)
    v = torch.randn(BATCH, KV_HEADS, SEQ_LEN, HEAD_DIM)
    return [q, k, v]


def get_init_inputs():
    return [SEQ_LEN, HEAD_DIM]
