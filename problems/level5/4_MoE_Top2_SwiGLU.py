"""Mixture-of-experts feed-forward layer (Mixtral-8x7B shapes): 2048 tokens of width 4096, a
softmax router over 8 experts, the top 2 per token with their probabilities renormalised to sum
to 1, and SwiGLU experts (gate/up 4096 -> 2 x 14336, down 14336 -> 4096). Tokens are sorted by
expert, run through the experts as two grouped GEMMs, weighted and scattered back. Output
[tokens, 4096].
Precision: bf16. The router is computed in fp32 (as DeepSeek-V3's gate does), so the choice of
experts does not hinge on bf16 rounding; each expert's GEMMs are bf16 (fp32 accumulation), the
SwiGLU product is computed in fp32 from the bf16 gate/up outputs and rounded once to bf16 for
the down GEMM; the two weighted expert outputs are summed in fp32.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: MoE serving (vLLM, SGLang) runs the experts' grouped GEMMs on bf16 weights and
# activations (or fp8); the fp32 router keeps the routing decision well defined.
precision = "bf16"

TOKENS = 2048
HIDDEN = 4096
FFN = 14336
EXPERTS = 8
TOP_K = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "HIDDEN": 256, "FFN": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 997}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, hidden: int, ffn: int, experts: int, top_k: int):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Parameter(torch.randn(experts, hidden) * hidden ** -0.5)
        # Per expert: [gate; up] stacked along the output dimension (unit-variance outputs), then
        # down at half that scale, as a residual branch's output is small next to the stream.
        self.w_gate_up = nn.Parameter(torch.randn(experts, 2 * ffn, hidden).mul_(hidden ** -0.5))
        self.w_down = nn.Parameter(torch.randn(experts, hidden, ffn).mul_(0.5 * ffn ** -0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        tokens, hidden = x.shape
        experts = self.w_gate_up.shape[0]
        logits = x.float() @ self.router.float().t()  # [tokens, experts], fp32
        weights, chosen = torch.softmax(logits, dim=-1).topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        # The tokens' assignments grouped by expert, the groups' ends counted on the device: the
        # grouped GEMMs read them there, so the host never waits for the GPU. (Tokens picked per
        # expert with torch.where need their count on the host, which made every call wait: lint
        # rule `host-bound`, docs/benchmarks.md, session 25.)
        expert = chosen.reshape(-1)  # [tokens * top_k], token-major
        order = expert.argsort(stable=True)
        expert_ids = torch.ones_like(expert[:experts]).cumsum(dim=0) - 1  # 0..experts-1, no host sync
        ends = (expert.unsqueeze(1) == expert_ids).sum(dim=0).cumsum(dim=0)
        gate, up = _grouped(x[order // self.top_k], self.w_gate_up, ends).chunk(2, dim=-1)
        h = (F.silu(gate.float()) * up.float()).to(x.dtype)  # fused SwiGLU: fp32 math, one rounding
        y = _grouped(h, self.w_down, ends)
        per_choice = x.new_empty(tokens * self.top_k, hidden).float()
        per_choice[order] = y.float() * weights.reshape(-1)[order].unsqueeze(1)
        return per_choice.view(tokens, self.top_k, hidden).sum(dim=1).to(x.dtype)


def _grouped(rows: torch.Tensor, weight: torch.Tensor, ends: torch.Tensor) -> torch.Tensor:
    """rows[group e] @ weight[e]^T for each group of consecutive rows ending at ends[e]."""
    if rows.dtype == torch.float64:  # kforge's fp64 check only (untimed): grouped_mm has no fp64
        starts = torch.cat([ends.new_zeros(1), ends[:-1]])
        return torch.cat([rows[s:e] @ w.t() for s, e, w in zip(starts.tolist(), ends.tolist(), weight)])
    return F.grouped_mm(rows, weight.transpose(-2, -1), offs=ends.to(torch.int32))


def get_inputs():
    x = torch.randn(TOKENS, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN, EXPERTS, TOP_K]
