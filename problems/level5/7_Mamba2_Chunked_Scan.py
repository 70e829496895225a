"""Mamba2 selective state-space scan in its chunked (SSD) form, Mamba2-2.7B shapes: 80 heads of
width 64, state size 128, one B/C group shared by all heads, chunks of 256 steps, 8 sequences of
4096 tokens. Per head h and step t, with dt_t = softplus(dt_raw_t + dt_bias) and A = -exp(A_log):
    S_t = exp(dt_t A) S_{t-1} + dt_t x_t B_t^T,    y_t = S_t C_t + D x_t    (S_0 = 0).
Computed chunk by chunk: the quadratic (attention-like) form inside each chunk, the chunk's final
state, a sequential pass of states between chunks, and each chunk's output from its incoming
state. Inputs x [b, len, heads, 64], dt_raw [b, len, heads], B and C [b, len, groups, 128];
output y [b, len, heads, 64].
Precision: bf16 inputs and output; all arithmetic in fp32 inside (the decays exp(cumsum(dt A))
are meaningless in bf16). The chunk products sum large terms that cancel (C . B is of order 10),
so rounding their operands to bf16 lands outside the 1e-2 tolerance (TF32-class operands stay
inside it).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: Mamba2 models run with bf16 activations; the scan kernels upcast to fp32 internally, as
# this reference does, and write bf16.
precision = "bf16"

# 8 sequences, not 4: torch 2.11's inductor splits a scan across blocks when it has fewer rows than
# 2 x 32 x SMs (8448 on the H200), and its split-scan kernel cannot load the per-head A and
# dt_bias this cumsum reads, so torch.compile failed at 4 x 80 x 16 = 5120 rows. 8 sequences give
# 10240 rows and still fit the 50 ms level-5 window.
BATCH = 8
SEQ_LEN = 4096
HEADS = 80
HEAD_DIM = 64
GROUPS = 1
STATE = 128
CHUNK = 256

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 256, "CHUNK": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 9472}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 192}]


class Model(nn.Module):
    def __init__(self, heads: int, chunk: int):
        super().__init__()
        self.chunk = chunk
        # Mamba2's initialisation: A in [1, 16], dt log-uniform in [1e-3, 1e-1] through the bias.
        self.A_log = nn.Parameter(torch.log(1.0 + 15.0 * torch.rand(heads)))
        dt = torch.exp(math.log(1e-3) + (math.log(1e-1) - math.log(1e-3)) * torch.rand(heads))
        self.dt_bias = nn.Parameter(dt + torch.log(-torch.expm1(-dt)))  # softplus^-1(dt)
        self.D = nn.Parameter(torch.ones(heads))
        self.register_buffer("causal", torch.ones(chunk, chunk, dtype=torch.bool).tril(), persistent=False)

    def forward(self, x: torch.Tensor, dt_raw: torch.Tensor, B: torch.Tensor, C: torch.Tensor) -> torch.Tensor:
        b, length, h, p = x.shape
        g, n = B.shape[2], B.shape[3]
        q = self.chunk
        c = length // q
        r = h // g  # heads per group
        xf = x.float().view(b, c, q, g, r, p)
        Bf = B.float().view(b, c, q, g, n)
        Cf = C.float().view(b, c, q, g, n)
        dt = F.softplus(dt_raw.float() + self.dt_bias.float())  # [b, len, h]
        A = -torch.exp(self.A_log.float())
        # Log-decays, cumulated within each chunk: [b, g, r, c, q].
        dt = dt.view(b, c, q, g, r).permute(0, 3, 4, 1, 2)
        cum = torch.cumsum(dt * A.view(g, r, 1, 1), dim=-1)

        # 1. Inside each chunk: y_i += sum_{j <= i} (C_i . B_j) exp(cum_i - cum_j) dt_j x_j.
        decay = cum.unsqueeze(-1) - cum.unsqueeze(-2)  # [b, g, r, c, q(i), q(j)]
        decay.masked_fill_(~self.causal[:q, :q], float("-inf")).exp_()
        decay.mul_(dt.unsqueeze(-2))
        CB = torch.einsum("bcign,bcjgn->bgcij", Cf, Bf)  # [b, g, c, q, q]
        decay.mul_(CB.unsqueeze(2))
        y = torch.einsum("bgrcij,bcjgrp->bcigrp", decay, xf)
        del decay

        # 2. Each chunk's final state from its own inputs: [b, c, g, r, p, n].
        to_end = torch.exp(cum[..., -1:] - cum) * dt  # [b, g, r, c, q]
        states = torch.einsum("bgrcj,bcjgrp,bcjgn->bcgrpn", to_end, xf, Bf)

        # 3. Sequential pass between chunks: the state entering chunk k.
        chunk_decay = torch.exp(cum[..., -1])  # [b, g, r, c]
        running = torch.zeros_like(states[:, 0])
        incoming = []
        for k in range(c):
            incoming.append(running)
            running = running * chunk_decay[..., k, None, None] + states[:, k]
        incoming = torch.stack(incoming, dim=1)  # [b, c, g, r, p, n]

        # 4. Output from the incoming state, decayed to each step: y_i += exp(cum_i) C_i . S_in.
        y = y + torch.einsum("bcign,bcgrpn,bgrci->bcigrp", Cf, incoming, torch.exp(cum))
        y = y + self.D.float().view(g, r, 1) * xf
        return y.reshape(b, length, h, p).to(x.dtype)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, HEADS, HEAD_DIM)
    dt_raw = torch.randn(BATCH, SEQ_LEN, HEADS) * 0.5
    B = torch.randn(BATCH, SEQ_LEN, GROUPS, STATE)
    C = torch.randn(BATCH, SEQ_LEN, GROUPS, STATE)
    return [x, dt_raw, B, C]


def get_init_inputs():
    return [HEADS, CHUNK]
