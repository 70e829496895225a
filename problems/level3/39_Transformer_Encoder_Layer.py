"""One pre-norm transformer encoder layer as PyTorch ships it (nn.TransformerEncoderLayer, batch
first, GELU feed-forward, dropout 0): x + MHA(LN(x)), then x + FFN(LN(x))."""
import torch
import torch.nn as nn

BATCH = 32
SEQ_LEN = 512
D_MODEL = 512
NUM_HEADS = 8
DIM_FEEDFORWARD = 2048

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "SEQ_LEN": 397}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37}]


class Model(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dim_feedforward: int):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(d_model, num_heads, dim_feedforward, dropout=0.0,
                                                activation="gelu", batch_first=True, norm_first=True)

    def forward(self, src: torch.Tensor) -> torch.Tensor:
        return self.layer(src)


def get_inputs():
    src = torch.randn(BATCH, SEQ_LEN, D_MODEL)
    return [src]


def get_init_inputs():
    return [D_MODEL, NUM_HEADS, DIM_FEEDFORWARD]
