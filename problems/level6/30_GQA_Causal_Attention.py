"""Training step of causal grouped-query attention (Llama-3-8B layout): 32 query heads share 8
key/value heads (query head h reads key/value head h // 4), head_dim 128, 2 sequences of 4096
tokens. q is [batch, 32, seq, 128], k and v are [batch, 8, seq, 128]. The reference repeats each
key/value head for its 4 query heads (repeat_interleave, as Hugging Face's repeat_kv does) and runs
causal scaled_dot_product_attention. Returns the output [batch, 32, seq, 128]; kforge drives
backward with a random upstream gradient of that shape.
Compared: the output and the gradients of q, k and v. dK and dV are [batch, 8, seq, 128]: the
repeat's backward sums the 4 query heads' contributions of a group into their shared head.
Why it matters: GQA is the attention of nearly every current LLM; in training the expanded K/V
copies and the group sum of dK/dV are pure overhead that a kernel reading the shared head in
place (and accumulating the group's dK/dV on chip) avoids.
Precision: bf16 inputs, output and gradients; fp32 scores, softmax and accumulation inside the
fused attention kernel.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: attention in LLM training runs on bf16 activations with fp32 accumulators.
precision = "bf16"
mode = "train"

BATCH = 2
Q_HEADS = 32
KV_HEADS = 8
SEQ_LEN = 4096
HEAD_DIM = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "Q_HEADS": 4, "KV_HEADS": 2, "SEQ_LEN": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "Q_HEADS": 12, "KV_HEADS": 4, "SEQ_LEN": 2999}]
cpu_extra_sizes = [{"BATCH": 2, "Q_HEADS": 6, "KV_HEADS": 2, "SEQ_LEN": 71}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        group = q.shape[1] // k.shape[1]
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def get_inputs():
    # Queries at twice unit scale: score std 2, each query attends to tens of keys.
    q = torch.randn(BATCH, Q_HEADS, SEQ_LEN, HEAD_DIM) * 2.0
    k = torch.randn(BATCH, KV_HEADS, SEQ_LEN, HEAD_DIM)
    v = torch.randn(BATCH, KV_HEADS, SEQ_LEN, HEAD_DIM)
    return [q, k, v]


def get_init_inputs():
    return []
