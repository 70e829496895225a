"""Training step of a mixture-of-experts feed-forward layer: 8192 tokens of width 1024, a softmax
router over 8 experts, the top 2 per token with their probabilities renormalised to sum to 1,
and SwiGLU experts (fused gate/up 1024 -> 2 x 2048, down 2048 -> 1024, no biases). Each expert
gathers its tokens, runs them, and adds its output, weighted by the token's routing weight, into
the token's row. x is [tokens, 1024]; returns [tokens, 1024]; kforge drives backward with a
random upstream gradient of that shape.
Compared: the output, the gradient of x (through the experts and through the router), and the
gradients of the router weight [8, 1024], the stacked gate/up weights [8, 4096, 1024] and the
down weights [8, 1024, 2048]. The router's gradient flows through the two renormalised
probabilities that scale the expert outputs. Inputs and weights are continuous random values,
so the top-2 choice has no ties.
Why it matters: MoE layers carry most of the parameters of current large models; their training
step is a grouped GEMM forward and two grouped GEMMs backward over tokens permuted by expert,
plus the gather/scatter and the router's small softmax/top-k, which eager PyTorch runs as a loop
of many kernels per expert.
Precision: bf16 weights, activations and gradients. The router logits, softmax and routing
weights are fp32 (so the choice does not hinge on bf16 rounding); each expert's GEMMs are bf16
with fp32 accumulation; SiLU(gate) * up is computed in fp32 and rounded once; the weighted expert
outputs are summed in fp32 and rounded once.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: MoE training (Mixtral, DeepSeek, Qwen-MoE) runs the experts in bf16 with an fp32 router.
precision = "bf16"
mode = "train"

TOKENS = 8192
HIDDEN = 1024
FFN = 2048
EXPERTS = 8
TOP_K = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 128, "HIDDEN": 64, "FFN": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3001}]
cpu_extra_sizes = [{"TOKENS": 77}]


class Model(nn.Module):
    def __init__(self, hidden: int, ffn: int, experts: int, top_k: int):
        super().__init__()
        self.top_k = top_k
        # Router logits of std about 1: a trained router's spread, no near-uniform ties.
        self.router = nn.Parameter(torch.randn(experts, hidden) * hidden ** -0.5)
        self.w_gate_up = nn.Parameter(torch.randn(experts, 2 * ffn, hidden) * hidden ** -0.5)
        # Down projections at half unit scale, as a residual branch's output is small.
        self.w_down = nn.Parameter(torch.randn(experts, hidden, ffn) * (0.5 * ffn ** -0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        probs = torch.softmax(x.float() @ self.router.float().t(), dim=-1)  # [tokens, experts], fp32
        top_p, top_e = probs.topk(self.top_k, dim=-1)
        top_p = top_p / top_p.sum(dim=-1, keepdim=True)
        out = x.new_zeros(x.shape).float()
        for e in range(self.w_gate_up.shape[0]):
            token, slot = torch.where(top_e == e)
            if token.numel() == 0:
                continue
            gate, up = (x[token] @ self.w_gate_up[e].t()).chunk(2, dim=-1)
            act = (F.silu(gate.float()) * up.float()).to(x.dtype)
            y = act @ self.w_down[e].t()
            # A token picks an expert at most once, so the rows of one index_add_ are distinct.
            out.index_add_(0, token, y.float() * top_p[token, slot].unsqueeze(1))
        return out.to(x.dtype)


def get_inputs():
    x = torch.randn(TOKENS, HIDDEN)
    return [x]


def get_init_inputs():
    return [HIDDEN, FFN, EXPERTS, TOP_K]
