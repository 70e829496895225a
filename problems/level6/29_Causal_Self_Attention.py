"""Training step of causal multi-head self-attention (the attention core of a GPT/Llama layer,
after the QKV projection): 16 heads of width 128, 4 sequences of 4096 tokens. q, k and v are
[batch, heads, seq, 128]; query i attends to keys j <= i with scale 1/sqrt(128), through
torch's scaled_dot_product_attention with is_causal=True. Returns the attention output
[batch, heads, seq, 128]; kforge drives backward with a random upstream gradient of that shape.
Compared: the output and the gradients of q, k and v (all three are activations of the layer
below, so a training step differentiates each of them). No parameters.
Why it matters: attention's backward (recomputing P, then dV = P^T dO, dP = dO V^T, the softmax
backward and dQ, dK) costs about 2.5 times its forward and is the largest kernel of a long-context
training step; a fused kernel that skips the masked upper triangle and never materialises the
[seq, seq] matrix is what FlashAttention's backward does.
Precision: bf16 q, k, v, output and gradients; scores, softmax and accumulations in fp32 inside
the fused kernel, as scaled_dot_product_attention computes them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: LLM pre-training runs attention on bf16 activations (fp32 accumulators in the kernel).
precision = "bf16"
mode = "train"

BATCH = 4
HEADS = 16
SEQ_LEN = 4096
HEAD_DIM = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "HEADS": 2, "SEQ_LEN": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 1999}]
cpu_extra_sizes = [{"BATCH": 2, "SEQ_LEN": 77}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def get_inputs():
    # Queries at twice unit scale give score std 2: each query attends to tens of keys, as in a
    # trained model, instead of averaging thousands of them into values near zero.
    q = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM) * 2.0
    k = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    v = torch.randn(BATCH, HEADS, SEQ_LEN, HEAD_DIM)
    return [q, k, v]


def get_init_inputs():
    return []
