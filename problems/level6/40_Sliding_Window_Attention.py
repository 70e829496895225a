"""Training step of causal sliding-window attention (Mistral / Gemma local layers): query i sees
keys j with i - 1024 < j <= i, given as an explicit banded boolean mask [seq, seq] built in
forward and passed to scaled_dot_product_attention. 16 heads of 128, one 4096-token sequence.
q, k, v are [batch, heads, seq, 128]; returns [batch, heads, seq, 128]; kforge drives backward
with a random upstream gradient of that shape.
Compared: the output and the gradients of q, k and v. No parameters.
Why it matters: with a window a quarter of the sequence, only about 7/32 of the [seq, seq] score
matrix is visible; the reference's masked attention still computes (and, in backward,
differentiates) every block, while a banded kernel visits only the blocks on the diagonal band,
forward and backward: the saving grows with the sequence length.
Precision: bf16 inputs, output and gradients; fp32 scores, softmax and accumulation inside the
fused kernel.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: local-attention layers are trained on bf16 activations with fp32 accumulators.
precision = "bf16"
mode = "train"

BATCH = 1
HEADS = 16
SEQ_LEN = 4096
HEAD_DIM = 128
WINDOW = 1024

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"HEADS": 2, "SEQ_LEN": 160, "WINDOW": 48}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 2, "SEQ_LEN": 2011}]
cpu_extra_sizes = [{"BATCH": 2, "SEQ_LEN": 93}]


class Model(nn.Module):
    def __init__(self, window: int):
        super().__init__()
        self.window = window

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        s = q.shape[2]
        ones = q.new_ones(s, s, dtype=torch.bool)
        # True where query i (row) may see key j (column): i - window < j <= i.
        band = ones.tril() & ones.triu(1 - self.window)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=band)


def get_inputs():
    # Queries at twice unit scale: score std 2, attention on tens of keys inside the window.
    q = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM) * 2.0
    k = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    v = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    return [q, k, v]


def get_init_inputs():
    return [WINDOW]
