"""One AdamW optimizer step over a flat group of 2^26 fp32 parameters (a 67M-parameter shard, as
ZeRO or FSDP leaves each rank), written out of place: param, grad, exp_avg and exp_avg_sq in,
the updated param, exp_avg and exp_avg_sq out. Step 10, lr 1e-2, betas (0.9, 0.999), eps 1e-8,
weight decay 0.1, bias corrections as torch.optim.AdamW applies them (decoupled decay first).
This problem is a forward of its own: no backward runs (the optimizer step is what follows the
backward in training), so it does not set `mode = "train"`.
Why it matters for training: the optimizer step reads four fp32 tensors and writes three per
parameter every iteration; PyTorch's unfused form makes about ten passes over memory, and a fused
kernel (torch's `fused=True`, apex's FusedAdam) makes one, a visible share of a step at small batch.
"""
import torch
import torch.nn as nn

NUMEL = 1 << 26
STEP = 10

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"NUMEL": 1 << 18}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"NUMEL": 10_000_019}]
cpu_extra_sizes = [{"NUMEL": 100_003}]


class Model(nn.Module):
    def __init__(self, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float):
        super().__init__()
        self.lr, self.beta1, self.beta2, self.eps, self.weight_decay = lr, beta1, beta2, eps, weight_decay

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        param = param * (1 - self.lr * self.weight_decay)
        exp_avg = exp_avg * self.beta1 + grad * (1 - self.beta1)
        exp_avg_sq = exp_avg_sq * self.beta2 + grad * grad * (1 - self.beta2)
        bias_correction1 = 1 - self.beta1 ** STEP
        bias_correction2 = 1 - self.beta2 ** STEP
        denom = (exp_avg_sq / bias_correction2).sqrt() + self.eps
        param = param - (self.lr / bias_correction1) * exp_avg / denom
        return param, exp_avg, exp_avg_sq


def get_inputs():
    param = torch.randn(NUMEL)
    grad = 0.1 * torch.randn(NUMEL)
    # Moments as ten earlier steps of gradients of that scale leave them.
    exp_avg = 0.05 * torch.randn(NUMEL)
    exp_avg_sq = 0.01 * torch.rand(NUMEL) + 1e-4
    return [param, grad, exp_avg, exp_avg_sq]


def get_init_inputs():
    return [1e-2, 0.9, 0.999, 1e-8, 0.1]
