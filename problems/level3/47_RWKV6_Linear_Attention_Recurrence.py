"""RWKV-6 style time-mixing layer with its linear-attention recurrence unrolled over time.
Token shift mixes each token with the previous one (learned per-channel ratios); receptance r,
key k, value v and gate g come from linear maps, and a data-dependent per-channel decay
w_t = exp(-exp(time_decay + x W_w)) lies in (0, 1). Per head the matrix state S (d x d) evolves as
    o_t = r_t (S + diag(u) k_t^T v_t),   S <- diag(w_t) S + k_t^T v_t
from a given initial state, with bonus u for the current token. Outputs go through a per-head
GroupNorm, the silu(g) gate and an output projection. Output (B, T, D)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

# Sized so the GPU sets the time: at a batch of 64 the H200 spent 11.9 ms of host time queueing against 13.0 ms of GPU work
# (lint rule `host-bound`; docs/benchmarks.md, session 25).
BATCH = 128
SEQ_LEN = 128
D_MODEL = 1024
NUM_HEADS = 16  # head size 64

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "SEQ_LEN": 97}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 11}]


class Model(nn.Module):
    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        head = d_model // num_heads
        ramp = torch.arange(d_model) / d_model
        self.mix = nn.Parameter(torch.stack([1.0 - ramp ** p for p in (0.5, 1.0, 1.5, 2.0, 3.0)]))  # r k v w g
        self.receptance = nn.Linear(d_model, d_model, bias=False)
        self.key = nn.Linear(d_model, d_model, bias=False)
        self.value = nn.Linear(d_model, d_model, bias=False)
        self.gate = nn.Linear(d_model, d_model, bias=False)
        self.decay = nn.Linear(d_model, d_model, bias=False)
        # Base decay per channel from fast (exp(-exp(-1)) ~ 0.69) to slow (exp(-exp(-6)) ~ 0.998).
        within = torch.arange(head) / (head - 1)
        self.time_decay = nn.Parameter((-1.0 - 5.0 * within).repeat(num_heads))
        self.bonus = nn.Parameter((0.5 * (1.0 - within)).repeat(num_heads, 1))  # u, (H, d)
        self.group_norm = nn.GroupNorm(num_heads, d_model)
        self.output = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        h = self.num_heads
        d = c // h
        prev = F.pad(x, (0, 0, 1, -1))  # x_{t-1}, zeros before the first token
        delta = prev - x
        xr, xk, xv, xw, xg = (x + delta * self.mix[i] for i in range(5))
        r = self.receptance(xr).view(b, t, h, d)
        k = self.key(xk).view(b, t, h, d)
        v = self.value(xv).view(b, t, h, d)
        w = torch.exp(-torch.exp(self.time_decay + self.decay(xw))).view(b, t, h, d)
        u = self.bonus.unsqueeze(-1)  # (H, d, 1)
        outs = []
        for i in range(t):
            kv = k[:, i].unsqueeze(-1) * v[:, i].unsqueeze(-2)  # (B, H, d, d)
            outs.append((r[:, i].unsqueeze(-2) @ (state + u * kv)).squeeze(-2))  # (B, H, d)
            state = w[:, i].unsqueeze(-1) * state + kv
        o = torch.stack(outs, dim=1).reshape(b * t, c)
        o = self.group_norm(o).view(b, t, c) * F.silu(self.gate(xg))
        return self.output(o)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, D_MODEL)
    state = torch.randn(BATCH, NUM_HEADS, D_MODEL // NUM_HEADS, D_MODEL // NUM_HEADS) * 0.5
    return [x, state]


def get_init_inputs():
    return [D_MODEL, NUM_HEADS]
