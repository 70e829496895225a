"""Training step of a Mamba (v1) selective scan, Mamba-130m's inner width: 1536 channels, state
size 16 per channel, 4 sequences of 256 tokens. Per channel d, state n and step t, with
delta_t = softplus(delta_raw_t + dt_bias) and A = -exp(A_log) (a diagonal [1536, 16] matrix):
    h_t = exp(delta_t A) * h_{t-1} + delta_t u_t B_t,    y_t = sum_n h_t C_t + D u_t    (h_0 = 0).
The reference is the chunked scan in plain torch ops: chunks of 16 steps; inside a chunk the
log-decays are cumulated (cum) and the states from a zero start are exp(cum_i) * sum_{j<=i}
exp(-cum_j) b_j (a cumsum); a short loop over chunks carries the state between them; each step
then adds its incoming state decayed by exp(cum_i). 16 steps keep exp(-cum) far from fp32
overflow at Mamba's largest decays (|A| 16, delta up to about 1). A length that is not a
multiple of 16 is padded with steps of zero log-decay and zero input, and cut back.
Inputs u [b, len, 1536], delta_raw [b, len, 1536], B and C [b, len, 16]; output y [b, len, 1536];
kforge drives backward with a random upstream gradient of that shape.
Compared: the output, the gradients of u, delta_raw, B and C (all are projections of the
layer's input, so a training step differentiates each), and of the parameters A_log [1536, 16],
dt_bias [1536] and D [1536].
Why it matters: the selective scan is Mamba's core; its training kernel fuses the scan forward,
keeps the [b, len, 1536, 16] states on chip (recomputing them in backward) and runs the reverse
scan for the gradients. Eager PyTorch instead writes a dozen fp32 tensors of that size and loops
over chunks.
Sized so the GPU work outweighs the host's: 2 sequences of 512 tokens (a 31-step chunk loop) took
11.86 ms of host time to queue against 10.26 ms on the H200's GPU, so its timed calls measured
the host (lint rule host-bound; docs/benchmarks.md, session 22).
Precision: fp32 (the scan's decays and states are kept in fp32 in Mamba's kernels).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

BATCH = 4
SEQ_LEN = 256
D_INNER = 1536
D_STATE = 16
CHUNK = 16

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 64, "D_INNER": 32, "D_STATE": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 333}]
cpu_extra_sizes = [{"BATCH": 2, "SEQ_LEN": 29}]


class Model(nn.Module):
    def __init__(self, d_inner: int, d_state: int, chunk: int):
        super().__init__()
        self.chunk = chunk
        # Mamba's initialisation: A = -(1, 2, ..., d_state) per channel (S4D-real), D = 1, and
        # delta log-uniform in [1e-3, 1e-1] through the bias (inverse softplus).
        self.A_log = nn.Parameter(torch.log(torch.arange(1, d_state + 1).repeat(d_inner, 1) * 1.0))
        self.D = nn.Parameter(torch.ones(d_inner))
        dt = torch.exp(math.log(1e-3) + (math.log(1e-1) - math.log(1e-3)) * torch.rand(d_inner))
        self.dt_bias = nn.Parameter(dt + torch.log(-torch.expm1(-dt)))

    def forward(self, u: torch.Tensor, delta_raw: torch.Tensor, B: torch.Tensor, C: torch.Tensor) -> torch.Tensor:
        b, length, d = u.shape
        n = B.shape[-1]
        q = self.chunk
        delta = F.softplus(delta_raw + self.dt_bias)  # [b, len, d]
        A = -torch.exp(self.A_log)  # [d, n]
        log_decay = delta.unsqueeze(-1) * A  # [b, len, d, n], <= 0
        inp = (delta * u).unsqueeze(-1) * B.unsqueeze(2)  # [b, len, d, n]
        pad = (-length) % q
        if pad:
            log_decay = F.pad(log_decay, (0, 0, 0, 0, 0, pad))
            inp = F.pad(inp, (0, 0, 0, 0, 0, pad))
        c = (length + pad) // q
        cum = log_decay.view(b, c, q, d, n).cumsum(dim=2)
        grow = torch.exp(cum)  # decay from the chunk's start through step i
        # States inside each chunk from a zero start: h_i = sum_{j <= i} exp(cum_i - cum_j) inp_j.
        local = grow * torch.cumsum(torch.exp(-cum) * inp.view(b, c, q, d, n), dim=2)
        # The state entering each chunk, carried across chunks in order.
        state = local.new_zeros(b, d, n)
        incoming = [state]
        for k in range(c - 1):
            state = state * grow[:, k, -1] + local[:, k, -1]
            incoming.append(state)
        h = local + grow * torch.stack(incoming, dim=1).unsqueeze(2)  # [b, c, q, d, n]
        h = h.view(b, c * q, d, n)[:, :length]
        y = torch.einsum("bldn,bln->bld", h, C)
        return y + self.D * u


def get_inputs():
    u = torch.randn(BATCH, SEQ_LEN, D_INNER)
    delta_raw = torch.randn(BATCH, SEQ_LEN, D_INNER) * 0.5
    B = torch.randn(BATCH, SEQ_LEN, D_STATE)
    C = torch.randn(BATCH, SEQ_LEN, D_STATE)
    return [u, delta_raw, B, C]


def get_init_inputs():
    return [D_INNER, D_STATE, CHUNK]
