"""Training step of knowledge distillation of a language model (Hinton et al.'s soft targets):
student logits [tokens, vocab] = [4096, 32000] (524 MB in fp32) against a frozen teacher's
probabilities at temperature T = 2 (same shape, computed once and passed in); the loss is
KL(teacher || student at T) = sum(t * (log t - log_softmax(student / T))), divided by the token
count ('batchmean') and multiplied by T^2 to keep gradient scales independent of T, a scalar.
Compared: the gradient of the student logits only (grad_inputs = [0]),
T * (softmax(student / T) - t) / tokens; the teacher is fixed and gets none. Eager PyTorch runs
the division, log_softmax, xlogy, product, difference and sum as separate full-size passes
(and their backward again); a fused kernel reads each logits row and teacher row once forward
and once backward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"
grad_inputs = [0]

TOKENS = 4096
VOCAB = 32000
TEMPERATURE = 2.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 32, "VOCAB": 2000}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 1531, "VOCAB": 32003}]
cpu_extra_sizes = [{"TOKENS": 29, "VOCAB": 2003}]


class Model(nn.Module):
    def __init__(self, temperature: float):
        super().__init__()
        self.temperature = temperature

    def forward(self, student_logits: torch.Tensor, teacher_probs: torch.Tensor) -> torch.Tensor:
        t = self.temperature
        student_log_probs = F.log_softmax(student_logits / t, dim=-1)
        return F.kl_div(student_log_probs, teacher_probs, reduction="batchmean") * (t * t)


def get_inputs():
    # Teacher logits of spread 3; the student is the teacher plus per-token noise of spread
    # 0.5 to 3.5, so the per-token divergence ranges from small to large.
    teacher_logits = torch.randn(TOKENS, VOCAB).mul_(3.0)
    noise = torch.rand(TOKENS, 1).mul_(3.0).add_(0.5)
    student_logits = torch.randn(TOKENS, VOCAB).mul_(noise).add_(teacher_logits)
    teacher_probs = torch.softmax(teacher_logits / TEMPERATURE, dim=-1)
    return [student_logits, teacher_probs]


def get_init_inputs():
    return [TEMPERATURE]
