"""Final state of a Mamba-2 selective state-space (SSD) scan continued from a cached state, chunked
form in plain PyTorch (no output sequence is formed). Per head h: dt = softplus(dt_raw + dt_bias),
a = -exp(A_log) dt, S_t = exp(a_t) S_{t-1} + (dt x_t) B_t^T, B shared by all heads. Each chunk's
own end state is a decay-weighted X^T B product; the carried state then runs across chunks
through the exp(segsum) decay matrix, starting from the given initial state. Output S_L (B, H, P, N)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
SEQ_LEN = 1024
NUM_HEADS = 64
HEAD_DIM = 64
STATE_DIM = 128
CHUNK = 128  # SEQ_LEN must be a multiple of CHUNK

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 256, "NUM_HEADS": 16, "CHUNK": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "SEQ_LEN": 896}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 192}]


def segsum(a: torch.Tensor) -> torch.Tensor:
    """(..., T) -> (..., T, T) with out[i, j] = sum of a[j+1 .. i] on and below the diagonal, -inf above."""
    t = a.shape[-1]
    below = torch.tril(a.new_ones(t, t, dtype=torch.bool), diagonal=-1)
    sums = torch.cumsum(a.unsqueeze(-1).expand(*a.shape, t).masked_fill(~below, 0.0), dim=-2)
    return sums.masked_fill(~torch.tril(a.new_ones(t, t, dtype=torch.bool)), float("-inf"))


class Model(nn.Module):
    def __init__(self, num_heads: int, chunk: int):
        super().__init__()
        self.chunk = chunk
        # Mamba-2 style init: A in [1, 16], dt log-uniform in [0.0005, 0.05] (inverse softplus)
        self.A_log = nn.Parameter(torch.log(1.0 + 15.0 * torch.rand(num_heads)))
        dt = torch.exp(math.log(0.0005) + (math.log(0.05) - math.log(0.0005)) * torch.rand(num_heads))
        self.dt_bias = nn.Parameter(dt + torch.log(-torch.expm1(-dt)))

    def forward(self, x: torch.Tensor, dt_raw: torch.Tensor, B: torch.Tensor,
                initial_state: torch.Tensor) -> torch.Tensor:
        b, length, h, p = x.shape
        n = B.shape[-1]
        q = self.chunk
        c = length // q
        dt = F.softplus(dt_raw + self.dt_bias)  # (b, L, h)
        a = (dt * -torch.exp(self.A_log)).transpose(1, 2).reshape(b, h, c, q)
        a_cum = torch.cumsum(a, dim=-1)  # (b, h, c, q)
        xs = (x * dt.unsqueeze(-1)).view(b, c, q, h, p).permute(0, 3, 1, 4, 2)  # (b, h, c, p, q)
        weight = torch.exp(a_cum[..., -1:] - a_cum)  # decay from each position to its chunk's end
        own = (xs * weight.unsqueeze(-2)) @ B.view(b, 1, c, q, n)  # (b, h, c, p, n)
        states = torch.cat([initial_state.unsqueeze(2), own], dim=2).flatten(-2)  # (b, h, c+1, p*n)
        across = torch.exp(segsum(F.pad(a_cum[..., -1], (1, 0))))  # (b, h, c+1, c+1)
        return (across @ states)[:, :, -1].view(b, h, p, n)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, NUM_HEADS, HEAD_DIM)
    dt_raw = torch.randn(BATCH, SEQ_LEN, NUM_HEADS) * 0.5
    B = torch.randn(BATCH, SEQ_LEN, STATE_DIM)
    initial_state = torch.randn(BATCH, NUM_HEADS, HEAD_DIM, STATE_DIM)
    return [x, dt_raw, B, initial_state]


def get_init_inputs():
    return [NUM_HEADS, CHUNK]
