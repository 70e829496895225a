"""Training step of a mixture-of-experts feed-forward layer with fixed expert capacity (GShard's
and Switch Transformer's dispatch, as Megatron-LM and DeepSpeed train it): 16384 tokens of width
1024, a softmax router over 8 experts, the top 2 per token with their probabilities renormalised
to sum to 1, and SwiGLU experts (fused gate/up 1024 -> 2 x 2048, down 2048 -> 1024, no biases).
Each expert takes at most capacity = ceil(1.0 * tokens * 2 / 8) tokens (4096 here); its slots
are filled in priority order: every token's first choice before any second choice, and by token
index within each. An assignment past its expert's capacity is dropped: it contributes nothing
(and gets no gradient), the token keeps its other expert's weighted output. The experts run as
two batched GEMMs over their [8, capacity, 1024] slots (empty slots hold zeros), and each token's
output is the sum of its kept assignments' outputs times their routing weights. x is [tokens,
1024]; returns [tokens, 1024]; kforge drives backward with a random upstream gradient of that
shape.
Compared: the output, the gradient of x (through the experts and through the router), and the
gradients of the router weight [8, 1024], the stacked gate/up weights [8, 4096, 1024] and the
down weights [8, 1024, 2048]. The router's gradient flows through the kept assignments'
renormalised probabilities. Inputs and weights are continuous random values, so the top-2 choice
has no ties. With capacity factor 1.0 about 1% of the assignments overflow their expert at the
benchmark's size (1.7% at the extra size, 3% at the CPU's sizes), so the drop rule is exercised.
Why it matters: MoE layers carry most of the parameters of current large models. Capacity-based
dispatch keeps every shape static (no host synchronisation, whole batched GEMMs), so the step is
the experts' GEMMs forward and backward plus the permutations around them: a gather into the
expert slots and a weighted combine out of them in each direction, which fused MoE kernels fold
into the GEMMs' prologues and epilogues.
Precision: bf16 weights, activations and gradients. The router logits, softmax and routing
weights are fp32 (so the choice does not hinge on bf16 rounding); each expert's GEMMs are bf16
with fp32 accumulation; SiLU(gate) * up is computed in fp32 and rounded once; the weighted expert
outputs are summed in fp32 and rounded once.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

precision = "bf16"
mode = "train"

TOKENS = 16384
HIDDEN = 1024
FFN = 2048
EXPERTS = 8
TOP_K = 2
CAPACITY_FACTOR = 1.0

cpu_sizes = {"TOKENS": 128, "HIDDEN": 64, "FFN": 128}
extra_sizes = [{"TOKENS": 3001}]
cpu_extra_sizes = [{"TOKENS": 77}]


class Model(nn.Module):
    def __init__(self, hidden: int, ffn: int, experts: int, top_k: int, capacity_factor: float):
        super().__init__()
        self.top_k = top_k
        self.capacity_factor = capacity_factor
        self.router = nn.Parameter(torch.randn(experts, hidden) * hidden ** -0.5)
        self.w_gate_up = nn.Parameter(torch.randn(experts, 2 * ffn, hidden) * hidden ** -0.5)
        self.w_down = nn.Parameter(torch.randn(experts, hidden, ffn) * (0.5 * ffn ** -0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        tokens, hidden = x.shape
        experts = self.w_gate_up.shape[0]
        capacity = math.ceil(self.capacity_factor * tokens * self.top_k / experts)
        probs = torch.softmax(x.float() @ self.router.float().t(), dim=-1)  # [tokens, experts], fp32
        top_p, top_e = probs.topk(self.top_k, dim=-1)
        top_p = top_p / top_p.sum(dim=-1, keepdim=True)
        # Assignments in priority order: choice-major (all first choices, then all second), token order within.
        expert = top_e.t().reshape(-1)  # [top_k * tokens]
        weight = top_p.t().reshape(-1)
        token = (torch.ones_like(top_e[:, 0]).cumsum(dim=0) - 1).repeat(self.top_k)  # 0..tokens-1, each choice
        expert_ids = torch.ones_like(top_e[0, :1]).expand(experts).cumsum(dim=0) - 1  # 0..experts-1
        chosen = (expert.unsqueeze(1) == expert_ids).long()  # one-hot, no host sync
        position = (chosen.cumsum(dim=0) * chosen).sum(dim=1) - 1  # the assignment's slot in its expert
        kept = position < capacity
        # Slot e * capacity + position per kept assignment; dropped ones go to a spare slot past the end.
        slot = torch.where(kept, expert * capacity + position, torch.full_like(position, experts * capacity))
        # Which token fills each slot (`tokens`, a zero row, where none does).
        slot_token = slot.new_full((experts * capacity + 1,), tokens)
        slot_token.scatter_(0, slot, token)
        padded = torch.cat([x, x.new_zeros(1, hidden)])
        h = padded[slot_token[:-1]].view(experts, capacity, hidden)
        gate, up = torch.bmm(h, self.w_gate_up.transpose(1, 2)).chunk(2, dim=-1)
        act = (F.silu(gate.float()) * up.float()).to(x.dtype)
        y = torch.bmm(act, self.w_down.transpose(1, 2)).reshape(experts * capacity, hidden)
        y = torch.cat([y, y.new_zeros(1, hidden)])  # the spare slot's output is zero
        combined = y[slot].float() * (weight * kept).unsqueeze(1)  # [top_k * tokens, hidden], fp32
        return combined.view(self.top_k, tokens, hidden).sum(dim=0).to(x.dtype)


def get_inputs():
    x = torch.randn(TOKENS, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN, EXPERTS, TOP_K, CAPACITY_FACTOR]
