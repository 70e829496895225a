"""Mixture-of-experts feed-forward layer (Mixtral-8x7B shapes): 2048 tokens of width 4096, a
softmax router over 8 experts, the top 2 per token with their probabilities renormalised to sum
to 1, and SwiGLU experts (gate/up 4096 -> 2 x 14336, down 14336 -> 4096). Tokens are gathered
per expert, run through it, weighted and scattered back. Output [tokens, 4096].
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
        logits = x.float() @ self.router.float().t()  # [tokens, experts], fp32
        weights, experts = torch.softmax(logits, dim=-1).topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        # One slot per (token, choice), summed at the end (as vLLM's moe_sum): no scattered adds.
        per_choice = x.new_zeros(x.shape[0], self.top_k, x.shape[1]).float()
        for e in range(self.w_gate_up.shape[0]):
            token, slot = torch.where(experts == e)
            if token.numel() == 0:
                continue
            gate, up = (x[token] @ self.w_gate_up[e].t()).chunk(2, dim=-1)
            h = (F.silu(gate.float()) * up.float()).to(x.dtype)  # fused SwiGLU: fp32 math, one rounding
            y = h @ self.w_down[e].t()
            per_choice[token, slot] = y.float() * weights[token, slot].unsqueeze(1)
        return per_choice.sum(dim=1).to(x.dtype)


def get_inputs():
    x = torch.randn(TOKENS, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN, EXPERTS, TOP_K]
