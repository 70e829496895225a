"""Training step of the attention softmax of an unfused (eager, non-Flash) attention layer:
scaled scores [batch, heads, seq, seq] = [32, 12, 1024, 1024] (GPT-2 small / BERT-base heads at
a 1024-token context, 1.6 GB in fp32) normalised by softmax over the last (key) dimension.
Forward returns the probabilities [32, 12, 1024, 1024]; backward is softmax's Jacobian product,
grad_x = p * (grad_out - sum(grad_out * p, dim=-1)). The gradient of the scores is compared.
Each 1024-wide row is reduced twice (max and sum forward, the dot product backward); the pair
is memory-bound: the forward reads and writes a score-sized tensor, the backward reads two and
writes one.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 32
HEADS = 12
SEQ = 1024

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEADS": 4, "SEQ": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "SEQ": 1001}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ": 77}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        return torch.softmax(scores, dim=-1)


def get_inputs():
    # Scores with a per-(head, query) temperature between 0.5 and 3.5: some rows nearly
    # uniform, some peaked on a few keys, as trained attention heads are.
    temperature = torch.rand(BATCH, HEADS, SEQ, 1).mul_(3.0).add_(0.5)
    scores = torch.randn(BATCH, HEADS, SEQ, SEQ).mul_(temperature)
    return [scores]


def get_init_inputs():
    return []
