"""L2 normalisation along the last dimension (F.normalize with p=2) of per-head query vectors
(batch x seq x heads x 128), as in QK-norm without a learned scale: many short rows."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
SEQ_LEN = 4096
HEADS = 40
HEAD_DIM = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 15, "SEQ_LEN": 3001, "HEADS": 39}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 77, "HEADS": 13}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.normalize(x, p=2.0, dim=-1)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, HEADS, HEAD_DIM) * 3.0
    return [x]


def get_init_inputs():
    return []
