"""Expert-parallel mixture-of-experts layer on 2 GPUs, as Megatron-LM's all-to-all token dispatcher
and DeepSpeed-MoE run it: 64 routed SwiGLU experts of DeepSeek-V2-Lite's shape (width 2048,
expert hidden 1408), 32 on each rank, and every token goes to its top 6. Each rank holds its own
4096 tokens (2 sequences of 2048) and the gate's logits for them; it takes softmax scores over
all 64 experts (not renormalised over the 6, as DeepSeek-V2), and gives each expert a capacity of
ceil(1.0 * 4096 * 6 / 64) = 384 slots per sending rank; tokens beyond it are dropped by position
(Megatron-LM's "position" drop policy: the earliest tokens keep their slots). The dispatch buffer
[64 experts x 384 slots, 2048] (unused slots zero) is exchanged with an all-to-all of equal splits,
each rank runs its 32 experts over [32, 2 x 384, 2048] slots as batched GEMMs, and a second
all-to-all brings the results back, where each token sums its kept experts' outputs weighted by
their scores (a token whose every choice was dropped gets zero: the residual stream carries it).
x [4096, 2048] and router_logits [4096, 64] on each rank (different tokens per rank); rank r holds
experts 32r..32r+31: w_gate_up [32, 2816, 2048] ([gate; up] stacked) and w_down [32, 2048, 1408].
Returns this rank's tokens' output [4096, 2048].
The gate's logits are an input, drawn with a margin: each token's 6 experts score in [3, 4) and
the other 58 in [0, 1), so the choice and the capacity drops never hinge on rounding. Experts are
drawn with a mildly skewed popularity (log-normal, sigma 0.1), the imbalance a load-balanced
router leaves: the busiest expert gets about 1.3x its capacity, and about 5% of choices drop.
Why it matters: expert parallelism is how MoE models too large for one GPU are trained and served,
and with fine-grained experts (6 of 64 per token) the two all-to-alls move 6 copies of every
token; fusing the permutation into the all-to-all and overlapping it with the experts' grouped
GEMM (DeepEP, Tutel, Megatron's overlapped dispatcher) is the point, as is skipping the empty
padded slots that the reference multiplies.
Sizing (arithmetic, not yet measured): 64 x 384 = 24576 slots per rank through the 3 expert GEMMs,
2 x 24576 x 2048 x 4224 = 0.43 TFLOP at the H200's 50 TFLOP/s in fp32 = 8.5 ms, plus two
all-to-alls of a 192 MiB buffer whose half crosses NVLink (about 0.25 ms each).
"""
import math

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

TOKENS = 4096
HIDDEN = 2048
FFN = 1408
EXPERTS = 64
TOP_K = 6
CAPACITY_FACTOR = 1.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 48, "HIDDEN": 64, "FFN": 96, "EXPERTS": 8, "TOP_K": 2}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3001}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, hidden: int, ffn: int, experts: int, top_k: int, capacity_factor: float):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        self.top_k, self.capacity_factor = top_k, capacity_factor
        # Built whole on every rank from the same seed, then each keeps its experts: the ranks
        # together hold exactly one unsplit MoE layer. Gate/up give unit-variance outputs.
        w_gate_up = torch.randn(experts, 2 * ffn, hidden).mul_(hidden ** -0.5)
        w_down = torch.randn(experts, hidden, ffn).mul_(ffn ** -0.5)
        local = experts // ranks
        mine = slice(rank * local, (rank + 1) * local)
        self.w_gate_up = nn.Parameter(w_gate_up[mine].clone())
        self.w_down = nn.Parameter(w_down[mine].clone())

    def forward(self, x: torch.Tensor, router_logits: torch.Tensor) -> torch.Tensor:
        tokens, hidden = x.shape
        experts = router_logits.shape[1]
        ranks = dist.get_world_size()
        local = experts // ranks
        capacity = math.ceil(self.capacity_factor * tokens * self.top_k / experts)
        scores = torch.softmax(router_logits.float(), dim=-1)
        weights, chosen = scores.topk(self.top_k, dim=-1)  # [tokens, top_k]
        # Each (token, choice)'s place in its expert's queue, tokens in order (a token picks an
        # expert at most once); places at or past the capacity are dropped.
        routed = F.one_hot(chosen, experts).sum(dim=1)  # [tokens, experts], 0 or 1
        place = (routed.cumsum(dim=0) - 1).gather(1, chosen)  # [tokens, top_k]
        kept = place < capacity
        slot = (chosen * capacity + place)[kept]  # row in the dispatch buffer, experts in order
        # Dispatch: experts 0..local-1 live on rank 0, so the buffer's halves go to ranks 0 and 1.
        send = x.new_zeros(experts * capacity, hidden)
        send[slot] = x.unsqueeze(1).expand(-1, self.top_k, -1)[kept]
        recv = torch.empty_like(send)
        dist.all_to_all_single(recv, send)
        # [source rank, local expert, slot, hidden] -> [local expert, source rank and slot, hidden]
        h = recv.view(ranks, local, capacity, hidden).transpose(0, 1).reshape(local, ranks * capacity, hidden)
        gate, up = torch.bmm(h, self.w_gate_up.transpose(1, 2)).chunk(2, dim=-1)
        y = torch.bmm(F.silu(gate) * up, self.w_down.transpose(1, 2))  # zero slots stay zero
        # Combine: back to [source rank, local expert, slot, hidden] and home to the source rank.
        y = y.view(local, ranks, capacity, hidden).transpose(0, 1).reshape(experts * capacity, hidden)
        back = torch.empty_like(y)
        dist.all_to_all_single(back, y)
        # One row per (token, choice), summed at the end: no scattered adds.
        per_choice = x.new_zeros(tokens, self.top_k, hidden)
        per_choice[kept] = back[slot] * weights[kept].unsqueeze(1).to(x.dtype)
        return per_choice.sum(dim=1)


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws all ranks' tokens and gate logits and keeps
    # its own contiguous shard of the tokens.
    total = world_size * TOKENS
    x = torch.randn(total, HIDDEN)
    # Each token's TOP_K experts, drawn without replacement with a skewed popularity; they score
    # in [3, 4) and the others in [0, 1): a margin of 2 between chosen and not chosen.
    popularity = torch.exp(0.1 * torch.randn(EXPERTS))
    chosen = torch.multinomial(popularity.repeat(total, 1), TOP_K)
    router_logits = torch.rand(total, EXPERTS) + 3.0 * torch.zeros(total, EXPERTS).scatter_(1, chosen, 1.0)
    mine = slice(rank * TOKENS, (rank + 1) * TOKENS)
    return [x[mine].clone(), router_logits[mine].clone()]


def get_init_inputs():
    return [HIDDEN, FFN, EXPERTS, TOP_K, CAPACITY_FACTOR]
