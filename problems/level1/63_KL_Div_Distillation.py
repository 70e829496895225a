"""Per-token KL divergence KL(teacher || student) over a 32000-entry vocabulary:
F.kl_div(student log-probs, teacher probs, reduction='none') summed over the vocabulary."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TOKENS = 20480
VOCAB = 32000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 7001, "VOCAB": 30011}]
cpu_extra_sizes = [{"TOKENS": 37, "VOCAB": 4001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, student_log_probs: torch.Tensor, teacher_probs: torch.Tensor) -> torch.Tensor:
        return F.kl_div(student_log_probs, teacher_probs, reduction="none").sum(dim=-1)


def get_inputs():
    teacher_logits = torch.randn(TOKENS, VOCAB).mul_(2.0)
    # The student is the teacher plus a per-token amount of noise, so the KL varies per token.
    noise = torch.rand(TOKENS, 1).mul_(1.5)
    student_logits = torch.randn(TOKENS, VOCAB).mul_(noise).add_(teacher_logits)
    student_log_probs = torch.log_softmax(student_logits, dim=-1)
    del student_logits
    teacher_probs = torch.softmax(teacher_logits, dim=-1)
    return [student_log_probs, teacher_probs]


def get_init_inputs():
    return []
