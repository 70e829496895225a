"""Training step of a LoRA-adapted linear layer, as PEFT fine-tunes an LLM: a frozen base weight
W0 (requires_grad=False) plus a trainable low-rank update, y = x W0^T + (alpha / r) (x A^T) B^T,
on the q_proj of Llama-2-7B (4096 -> 4096, no bias) with rank r = 16 and alpha = 32 (scaling 2),
8 sequences of 2048 tokens. x [8, 2048, 4096], W0 [4096, 4096] frozen, A [16, 4096], B [4096, 16].
B is non-zero (an adapter some steps into training; PEFT starts it at zero, which would leave A
without a gradient). No dropout. Returns y [8, 2048, 4096].
Backward runs from a random upstream gradient g of y's shape; compared are y, the gradient of x
(input 0: earlier adapted layers need it) and the gradients of A and B. W0 gets none.
Precision: bf16 (weights, activations and GEMMs, fp32 accumulation), as LoRA fine-tuning runs.
Why it matters for training: with W0 frozen the base layer's weight gradient is skipped, so the
step is the base forward and data-gradient GEMMs plus rank-16 GEMMs that are pure memory traffic
over x and g; unfused, the adapter path reads and writes the [tokens, 4096] activations several
more times, which fused LoRA kernels fold into the base GEMMs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"
# bf16: LoRA fine-tuning keeps the frozen base weights and the activations in bf16 (QLoRA even
# quantises the base further); the base GEMMs run on bf16 tensor cores.
precision = "bf16"

BATCH = 8
SEQ = 2048
IN_FEATURES = 4096
OUT_FEATURES = 4096
RANK = 16
ALPHA = 32

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ": 64, "IN_FEATURES": 256, "OUT_FEATURES": 384}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "SEQ": 1999}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ": 37}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, rank: int, alpha: int):
        super().__init__()
        self.scaling = alpha / rank
        # The pretrained weight, frozen: no gradient is computed or compared for it.
        self.weight = nn.Parameter(torch.randn(out_features, in_features).mul_(in_features ** -0.5),
                                   requires_grad=False)
        # A as PEFT initialises it (Kaiming-uniform, bound 1/sqrt(in)); B small and non-zero, so the
        # adapter's contribution is about a fifth of the base output's scale.
        self.lora_A = nn.Parameter(torch.empty(rank, in_features).uniform_(-1.0, 1.0).mul_(in_features ** -0.5))
        self.lora_B = nn.Parameter(torch.randn(out_features, rank).mul_(0.05))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        base = F.linear(x, self.weight)
        return base + F.linear(F.linear(x, self.lora_A), self.lora_B) * self.scaling


def get_inputs():
    x = torch.randn(BATCH, SEQ, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, RANK, ALPHA]
