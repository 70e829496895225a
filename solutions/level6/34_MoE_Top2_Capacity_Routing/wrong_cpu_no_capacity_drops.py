# WRONG ON PURPOSE: a dropless MoE (every assignment runs, as grouped-GEMM MoE kernels without a
# capacity compute): the problem's experts take at most ceil(tokens * 2 / 8) tokens each and drop
# the assignments past it, about 1-3% of them, so the tokens those assignments belong to differ.
# Expected verdict: incorrect.
"""Deliberately wrong capacity-routed MoE step: no assignment is ever dropped."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, hidden: int, ffn: int, experts: int, top_k: int, capacity_factor: float):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Parameter(torch.randn(experts, hidden) * hidden ** -0.5)
        self.w_gate_up = nn.Parameter(torch.randn(experts, 2 * ffn, hidden) * hidden ** -0.5)
        self.w_down = nn.Parameter(torch.randn(experts, hidden, ffn) * (0.5 * ffn ** -0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        probs = torch.softmax(x.float() @ self.router.float().t(), dim=-1)
        top_p, top_e = probs.topk(self.top_k, dim=-1)
        top_p = top_p / top_p.sum(dim=-1, keepdim=True)
        out = x.new_zeros(x.shape).float()
        for e in range(self.w_gate_up.shape[0]):
            token, choice = torch.where(top_e == e)
            gate, up = (x[token] @ self.w_gate_up[e].t()).chunk(2, dim=-1)
            y = (F.silu(gate.float()) * up.float()).to(x.dtype) @ self.w_down[e].t()
            out.index_add_(0, token, y.float() * top_p[token, choice].unsqueeze(1))
        return out.to(x.dtype)
