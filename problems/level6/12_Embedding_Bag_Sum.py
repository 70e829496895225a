"""Training step of a recommender's pooled embedding lookup (DLRM-style sparse feature): an
nn.EmbeddingBag table of 2,000,000 rows x 128 (1 GB in fp32) and a batch of 65536 bags holding
4,194,304 int64 ids in all (64 a bag on average; bag lengths vary, exponentially distributed,
a few bags empty), given as a flat id list and int64 bag start offsets. Ids are drawn with a
heavy head (a tenth of the lookups hit the hottest 0.1% of rows, as item and user ids do).
Forward returns the sum of each bag's rows [65536, 128] (zero for an empty bag). Compared: the
gradient of the table [2,000,000, 128] (dense, sparse=False), a scatter-add of each bag's
upstream gradient into every row it looked up, the hot rows receiving thousands of
contributions each; the ids and offsets are integers and get no gradient. Eager PyTorch sorts
the ids to reduce duplicates without atomics; the table-sized gradient has to be zeroed and
written every step.
"""
import torch
import torch.nn as nn

mode = "train"

ROWS = 2000000
DIM = 128
BAGS = 65536
MEAN_BAG = 64

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 5000, "DIM": 32, "BAGS": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BAGS": 30011}]
cpu_extra_sizes = [{"BAGS": 37}]


class Model(nn.Module):
    def __init__(self, rows: int, dim: int):
        super().__init__()
        self.table = nn.EmbeddingBag(rows, dim, mode="sum")

    def forward(self, ids: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
        return self.table(ids, offsets)


def get_inputs():
    total = BAGS * MEAN_BAG
    # Bag boundaries at sorted random cut points: bag lengths vary (exponentially distributed
    # around MEAN_BAG), and a bag whose two cuts coincide is empty.
    cuts = torch.sort(torch.randint(0, total + 1, (BAGS - 1,))).values
    offsets = torch.cat([torch.zeros(1, dtype=torch.long), cuts])
    # u^3 * ROWS: P(id < 0.001 * ROWS) = 0.1, a long-tailed popularity as real id features have.
    ids = torch.rand(total).pow_(3.0).mul_(ROWS).long().clamp_(max=ROWS - 1)
    return [ids, offsets]


def get_init_inputs():
    return [ROWS, DIM]
