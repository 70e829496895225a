"""Mamba-2 selective state-space (SSD) layer core in plain PyTorch, chunked "segment-sum" form.
Per head h: dt = softplus(dt_raw + dt_bias), a = -exp(A_log) dt, state S_t = exp(a_t) S_{t-1} +
(dt x_t) B_t^T, output y_t = S_t C_t + D x_t, with B and C shared by all heads (one group).
Computed chunk by chunk: within a chunk a masked decay matrix exp(segsum(a)) times C B^T acts as
causal attention; chunk-final states are passed between chunks through a second segment sum; the
carried-in states add their contribution. Output y (B, L, H, P)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
SEQ_LEN = 2048
NUM_HEADS = 32
HEAD_DIM = 64
STATE_DIM = 128
CHUNK = 128  # SEQ_LEN must be a multiple of CHUNK

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 256, "NUM_HEADS": 4, "CHUNK": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "SEQ_LEN": 1664}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 192}]


def segsum(a: torch.Tensor) -> torch.Tensor:
    """(..., T) -> (..., T, T): out[i, j] = a[j+1] + ... + a[i] for i >= j, -inf above the diagonal."""
    t = a.shape[-1]
    strict = torch.tril(a.new_ones(t, t, dtype=torch.bool), diagonal=-1)
    terms = a.unsqueeze(-1).expand(*a.shape, t).masked_fill(~strict, 0.0)  # terms[i, j] = a[i] if i > j
    sums = torch.cumsum(terms, dim=-2)
    lower = torch.tril(a.new_ones(t, t, dtype=torch.bool))
    return sums.masked_fill(~lower, float("-inf"))


class Model(nn.Module):
    def __init__(self, num_heads: int, chunk: int):
        super().__init__()
        self.chunk = chunk
        # Mamba-2's initialisation: decay rates A in [1, 16], step sizes log-uniform in [0.001, 0.1]
        # (stored through the inverse of softplus).
        self.A_log = nn.Parameter(torch.log(1.0 + 15.0 * torch.rand(num_heads)))
        dt = torch.exp(math.log(0.001) + (math.log(0.1) - math.log(0.001)) * torch.rand(num_heads))
        self.dt_bias = nn.Parameter(dt + torch.log(-torch.expm1(-dt)))
        self.D = nn.Parameter(torch.ones(num_heads))

    def forward(self, x: torch.Tensor, dt_raw: torch.Tensor, B: torch.Tensor, C: torch.Tensor) -> torch.Tensor:
        b, length, h, p = x.shape
        n = B.shape[-1]
        q = self.chunk
        c = length // q
        dt = F.softplus(dt_raw + self.dt_bias)  # (b, L, h)
        a = (dt * -torch.exp(self.A_log)).view(b, c, q, h).permute(0, 3, 1, 2)  # (b, h, c, q)
        xs = (x * dt.unsqueeze(-1)).view(b, c, q, h, p).permute(0, 3, 1, 2, 4)  # (b, h, c, q, p)
        Bc = B.view(b, 1, c, q, n)
        Cc = C.view(b, 1, c, q, n)
        a_cum = torch.cumsum(a, dim=-1)  # (b, h, c, q)

        # 1. within each chunk: causal "attention" C B^T weighted by the decay between positions
        decay = torch.exp(segsum(a))  # (b, h, c, q, q)
        y_diag = ((Cc @ Bc.transpose(-1, -2)) * decay) @ xs  # (b, h, c, q, p)

        # 2. the state each chunk leaves behind, from its own inputs only
        to_end = torch.exp(a_cum[..., -1:] - a_cum)  # (b, h, c, q)
        chunk_states = (xs * to_end.unsqueeze(-1)).transpose(-1, -2) @ Bc  # (b, h, c, p, n)

        # 3. pass states across chunks (zero state before the first chunk)
        states = torch.cat([torch.zeros_like(chunk_states[:, :, :1]), chunk_states], dim=2)
        chunk_decay = torch.exp(segsum(F.pad(a_cum[..., -1], (1, 0))))  # (b, h, c+1, c+1)
        states = (chunk_decay @ states.flatten(-2)).view(b, h, c + 1, p, n)
        carried = states[:, :, :-1]  # state entering each chunk

        # 4. the carried-in state's contribution to each position
        y_off = (Cc @ carried.transpose(-1, -2)) * torch.exp(a_cum).unsqueeze(-1)  # (b, h, c, q, p)

        y = (y_diag + y_off).permute(0, 2, 3, 1, 4).reshape(b, length, h, p)
        return y + self.D.view(1, 1, h, 1) * x


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, NUM_HEADS, HEAD_DIM)
    dt_raw = torch.randn(BATCH, SEQ_LEN, NUM_HEADS) * 0.5
    B = torch.randn(BATCH, SEQ_LEN, STATE_DIM)
    C = torch.randn(BATCH, SEQ_LEN, STATE_DIM)
    return [x, dt_raw, B, C]


def get_init_inputs():
    return [NUM_HEADS, CHUNK]
