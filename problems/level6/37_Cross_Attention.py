"""Training step of encoder-decoder cross-attention, Whisper-medium shapes: decoder states x
[batch, 448, 1024] attend to encoder states enc [batch, 1500, 1024] (30 s of audio), 16 heads of
64, 64 pairs. Projections as Whisper's: q = x W_q^T + b_q, k = enc W_k^T (no bias),
v = enc W_v^T + b_v; scaled_dot_product_attention without a mask (every decoder position sees
every encoder frame); out = attn W_o^T + b_o. Returns [batch, 448, 1024]; kforge drives backward
with a random upstream gradient of that shape.
Compared: the output, the gradients of x and enc (in training the encoder is trained through
this path) and of all seven parameters.
Why it matters: cross-attention is the link in every encoder-decoder model (Whisper, T5, image
captioners, Perceiver); its training step has non-square attention (448 queries over 1500 keys,
neither a multiple of 128) and K/V projections over the longer sequence, so the K/V GEMMs
dominate and the key-side gradient is a sum over all decoder positions.
Precision: bf16 weights, activations and gradients; GEMMs accumulate in fp32; attention keeps
fp32 scores and softmax inside the fused kernel.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: encoder-decoder models are trained with bf16 mixed precision.
precision = "bf16"
mode = "train"

BATCH = 64
TGT_LEN = 448
SRC_LEN = 1500
EMBED = 1024
HEADS = 16

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "TGT_LEN": 24, "SRC_LEN": 40, "EMBED": 64, "HEADS": 4}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "TGT_LEN": 301, "SRC_LEN": 997}]
cpu_extra_sizes = [{"BATCH": 3, "TGT_LEN": 13, "SRC_LEN": 29}]


class Model(nn.Module):
    def __init__(self, embed: int, heads: int):
        super().__init__()
        self.heads = heads
        scale = embed ** -0.5
        # Queries at twice unit scale (score std about 2): attention on a few tens of frames.
        self.w_q = nn.Parameter(torch.randn(embed, embed) * (2.0 * scale))
        self.b_q = nn.Parameter(torch.randn(embed) * 0.02)
        self.w_k = nn.Parameter(torch.randn(embed, embed) * scale)
        self.w_v = nn.Parameter(torch.randn(embed, embed) * scale)
        self.b_v = nn.Parameter(torch.randn(embed) * 0.02)
        self.w_o = nn.Parameter(torch.randn(embed, embed) * scale)
        self.b_o = nn.Parameter(torch.randn(embed) * 0.02)

    def forward(self, x: torch.Tensor, enc: torch.Tensor) -> torch.Tensor:
        b, t, e = x.shape
        s = enc.shape[1]
        h = self.heads
        q = F.linear(x, self.w_q, self.b_q).view(b, t, h, e // h).transpose(1, 2)
        k = F.linear(enc, self.w_k).view(b, s, h, e // h).transpose(1, 2)
        v = F.linear(enc, self.w_v, self.b_v).view(b, s, h, e // h).transpose(1, 2)
        attn = F.scaled_dot_product_attention(q, k, v)  # [b, h, t, d]
        return F.linear(attn.transpose(1, 2).reshape(b, t, e), self.w_o, self.b_o)


def get_inputs():
    x = torch.randn(BATCH, TGT_LEN, EMBED)
    enc = torch.randn(BATCH, SRC_LEN, EMBED)
    return [x, enc]


def get_init_inputs():
    return [EMBED, HEADS]
