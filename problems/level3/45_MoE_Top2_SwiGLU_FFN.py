"""Mixture-of-experts feed-forward layer with top-2 routing (Mixtral style) and fixed expert
capacity: a linear router gives per-token expert probabilities, the two largest are kept and
renormalised, and each expert (a SwiGLU MLP, silu(x W1) * (x W3) then W2, no biases) runs on the
tokens routed to it; a token's output is the sum of its kept assignments' expert outputs times
their weights. Each expert holds at most capacity = ceil(1.25 * tokens * 2 / experts) tokens, its
slots filled first by every token's first choice, then by second choices, in token order within
each; an assignment past its expert's capacity is dropped (contributes nothing). The experts run
as batched GEMMs over their [experts, capacity, d_model] slots (empty slots hold zeros). Output
has the input's shape (B, T, D).
Why capacity: routing by data-dependent token counts (nonzero per expert) makes the host wait for
the GPU inside every call, so its timing measured the host (lint rule `host-bound`; the identity
was 1.08 on the H200, docs/benchmarks.md, session 25). Static shapes keep the call asynchronous.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
SEQ_LEN = 1024
D_MODEL = 768
D_FF = 2048
NUM_EXPERTS = 8
TOP_K = 2
CAPACITY_FACTOR = 1.25

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 1001}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37}]


class Model(nn.Module):
    def __init__(self, d_model: int, d_ff: int, num_experts: int, top_k: int, capacity_factor: float):
        super().__init__()
        self.top_k = top_k
        self.capacity_factor = capacity_factor
        self.router = nn.Linear(d_model, num_experts, bias=False)
        # The experts' weights stacked, [experts, out, in], as nn.Linear would hold each.
        self.w1 = nn.Parameter(torch.randn(num_experts, d_ff, d_model) * d_model ** -0.5)
        self.w3 = nn.Parameter(torch.randn(num_experts, d_ff, d_model) * d_model ** -0.5)
        self.w2 = nn.Parameter(torch.randn(num_experts, d_model, d_ff) * d_ff ** -0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        n, experts = b * t, self.w1.shape[0]
        capacity = math.ceil(self.capacity_factor * n * self.top_k / experts)
        tokens = x.reshape(n, d)
        weights, chosen = torch.softmax(self.router(tokens), dim=-1).topk(self.top_k, dim=-1)  # (N, k)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        # Assignments in slot-filling order: all first choices, then all second choices.
        expert = chosen.t().reshape(-1)  # (k N,)
        weight = weights.t().reshape(-1)
        source = (torch.ones_like(expert[:n]).cumsum(dim=0) - 1).repeat(self.top_k)  # the token of each assignment
        # Rank of each assignment among those of its expert (a comparison, not one_hot: no host sync).
        member = expert.unsqueeze(1) == torch.ones_like(expert[:experts]).cumsum(dim=0) - 1
        rank = member.long().cumsum(dim=0).gather(1, expert.unsqueeze(1)).squeeze(1) - 1
        kept = rank < capacity
        # Each kept assignment's slot; dropped ones write to one spare row past the end.
        slot = torch.where(kept, expert * capacity + rank, torch.full_like(rank, experts * capacity))
        slots = tokens.new_zeros(experts * capacity + 1, d)
        slots.index_copy_(0, slot, tokens[source])
        h = slots[:-1].view(experts, capacity, d)
        act = F.silu(torch.bmm(h, self.w1.transpose(1, 2))) * torch.bmm(h, self.w3.transpose(1, 2))
        y = torch.bmm(act, self.w2.transpose(1, 2)).reshape(experts * capacity, d)
        y = torch.cat([y, y.new_zeros(1, d)])  # the spare row gives dropped assignments nothing
        out = (y[slot] * (weight * kept).unsqueeze(1)).view(self.top_k, n, d).sum(dim=0)
        return out.view(b, t, d)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, D_MODEL)
    return [x]


def get_init_inputs():
    return [D_MODEL, D_FF, NUM_EXPERTS, TOP_K, CAPACITY_FACTOR]
