"""Training step of a transformer's LayerNorm (GPT-2 / BERT / ViT style): x [tokens, hidden] =
[32768, 8192] (1.1 GB in fp32) normalised over the hidden dimension with a learned weight and
bias, eps 1e-5. Forward returns the normalised activations [32768, 8192]. Compared: the
gradient of x and of the weight and bias [8192], the latter two reductions over all 32768
tokens (grad_weight = sum(grad_out * x_hat), grad_bias = sum(grad_out)). Memory-bound; the
backward needs the per-token mean and rstd and a per-token reduction of grad_out * weight
before it can write grad_x, and the parameter gradients need a cross-token reduction, so eager
PyTorch reads x and grad_out twice.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

TOKENS = 32768
HIDDEN = 8192
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 128, "HIDDEN": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 20011}]
cpu_extra_sizes = [{"TOKENS": 77}]


class Model(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        # Gains and biases away from the trivial ones/zeros, as after some training.
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(hidden))
        self.bias = nn.Parameter(0.2 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.layer_norm(x, (x.shape[-1],), self.weight, self.bias, self.eps)


def get_inputs():
    # A residual stream: per-token scale from 0.5 to 4 and a per-token mean offset.
    scale = torch.rand(TOKENS, 1).mul_(3.5).add_(0.5)
    x = torch.randn(TOKENS, HIDDEN).mul_(scale).add_(torch.randn(TOKENS, 1))
    return [x]


def get_init_inputs():
    return [HIDDEN, EPS]
