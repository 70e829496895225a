"""Mixture-of-experts feed-forward layer with top-2 routing (Mixtral style): a linear router gives
per-token expert probabilities, the two largest are kept and renormalised, and each expert (a
SwiGLU MLP, silu(x W1) * (x W3) then W2) runs only on the tokens routed to it; the two weighted
expert outputs of each token are summed. Output has the input's shape (B, T, D)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
SEQ_LEN = 1024
D_MODEL = 768
D_FF = 2048
NUM_EXPERTS = 8
TOP_K = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 1001}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37}]


class SwiGLUExpert(nn.Module):
    def __init__(self, d_model: int, d_ff: int):
        super().__init__()
        self.w1 = nn.Linear(d_model, d_ff, bias=False)
        self.w3 = nn.Linear(d_model, d_ff, bias=False)
        self.w2 = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Model(nn.Module):
    def __init__(self, d_model: int, d_ff: int, num_experts: int, top_k: int):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Linear(d_model, num_experts, bias=False)
        self.experts = nn.ModuleList([SwiGLUExpert(d_model, d_ff) for _ in range(num_experts)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        tokens = x.reshape(b * t, d)
        probs = torch.softmax(self.router(tokens), dim=-1)
        weights, chosen = probs.topk(self.top_k, dim=-1)  # (N, k)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            token_idx, slot = torch.nonzero(chosen == e, as_tuple=True)
            if token_idx.numel() == 0:
                continue
            y = expert(tokens[token_idx]) * weights[token_idx, slot].unsqueeze(-1)
            out.index_add_(0, token_idx, y)  # each token receives exactly TOP_K additions
        return out.view(b, t, d)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, D_MODEL)
    return [x]


def get_init_inputs():
    return [D_MODEL, D_FF, NUM_EXPERTS, TOP_K]
