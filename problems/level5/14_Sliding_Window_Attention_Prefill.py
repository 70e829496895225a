"""Causal sliding-window attention over a prompt (prefill), Gemma-3-12B local-layer shapes: 16
query heads share 8 key/value heads, head_dim 256, window 1024 (query i sees keys j with
i - 1024 < j <= i), one 8192-token sequence. q, k, v are [batch, seq, heads, head_dim] (the
flash-attn layout); output [batch, seq, 16, 256]. The reference walks the queries in blocks of
1024 and scores each block only against the keys its window can reach.
Precision: bf16. Scores and softmax in fp32, probabilities rounded to the input dtype for P @ V,
as a FlashAttention kernel does.
"""
import torch
import torch.nn as nn

# bf16: local attention layers of Gemma/Mistral-style models are served in bf16; with a window
# one eighth of the prompt, skipping the never-visible key blocks is most of the win.
precision = "bf16"

BATCH = 1
SEQ_LEN = 8192
Q_HEADS = 16
KV_HEADS = 8
HEAD_DIM = 256
WINDOW = 1024
QUERY_BLOCK = 1024

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"SEQ_LEN": 384, "WINDOW": 96, "QUERY_BLOCK": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 2, "Q_HEADS": 6, "KV_HEADS": 3}]
cpu_extra_sizes = [{"BATCH": 3, "Q_HEADS": 2, "KV_HEADS": 1}]


class Model(nn.Module):
    def __init__(self, seq_len: int, head_dim: int, window: int, query_block: int):
        super().__init__()
        self.scale = head_dim ** -0.5
        self.window, self.query_block = window, query_block
        self.register_buffer("positions", torch.arange(seq_len), persistent=False)

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        b, s, hq, d = q.shape
        hkv = k.shape[2]
        # [b, hkv, group, s, d]: query heads of one group over their shared key/value head.
        qg = (q.float() * self.scale).view(b, s, hkv, hq // hkv, d).permute(0, 2, 3, 1, 4)
        keys = k.float().permute(0, 2, 3, 1).unsqueeze(2)  # [b, hkv, 1, d, s]
        values = v.permute(0, 2, 1, 3).unsqueeze(2)  # [b, hkv, 1, s, d]
        outs = []
        for q0 in range(0, s, self.query_block):
            q1 = min(q0 + self.query_block, s)
            k0 = max(0, q0 - self.window + 1)
            scores = torch.matmul(qg[:, :, :, q0:q1], keys[..., k0:q1])  # [b, hkv, group, bq, bk]
            qpos = self.positions[q0:q1].unsqueeze(1)
            kpos = self.positions[k0:q1].unsqueeze(0)
            visible = (kpos <= qpos) & (kpos > qpos - self.window)
            scores.masked_fill_(~visible, float("-inf"))
            probs = torch.softmax(scores, dim=-1).to(v.dtype)
            outs.append(torch.matmul(probs, values[:, :, :, k0:q1]))
        out = torch.cat(outs, dim=3)  # [b, hkv, group, s, d]
        return out.permute(0, 3, 1, 2, 4).reshape(b, s, hq, d)


def get_inputs():
    # Queries at twice unit scale: score std 2, attention on tens of keys inside the window.
    q = torch.randn(BATCH, SEQ_LEN, Q_HEADS, HEAD_DIM) * 2.0
    k = torch.randn(BATCH, SEQ_LEN, KV_HEADS, HEAD_DIM)
    v = torch.randn(BATCH, SEQ_LEN, KV_HEADS, HEAD_DIM)
    return [q, k, v]


def get_init_inputs():
    return [SEQ_LEN, HEAD_DIM, WINDOW, QUERY_BLOCK]
