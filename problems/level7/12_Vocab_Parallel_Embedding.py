"""Megatron-LM's vocab-parallel embedding on 2 GPUs: the token embedding table is split by rows
(vocabulary), each rank looks up the ids that fall in its contiguous half of the vocabulary and
writes zero rows for the others, and an all-reduce (SUM) assembles the full embeddings on every
rank (each token's row comes from exactly one rank). Llama-3-8B's table, 128256 x 4096 (64128
rows per rank), 4 sequences of 8192 tokens. ids [4, 8192] int64 on every rank (the same ids,
uniform over the whole vocabulary: half of them on each rank); rank r holds weight[r]
[64128, 4096] (N(0, 1), nn.Embedding's initialisation). Returns the embeddings [4, 8192, 4096]
on every rank.
Why it matters: it is the first layer of every tensor-parallel language model, and it is all
data movement: the all-reduce moves the full 512 MiB of embeddings although each rank has only
half of the rows to contribute, so exchanging just the looked-up rows (an all-gather of
each rank's share, or each rank writing its rows straight into its peer's output over NVLink)
halves the traffic, and fusing the lookup, the mask and the send removes the passes over the
zero-padded output.
Sizing (arithmetic, not yet measured): the lookup and the mask each read and write 512 MiB
(4 x 537 MB at the H200's 4.2 TB/s, about 0.5 ms), and the all-reduce of 512 MiB sends 512 MiB
each way over NVLink in its reduce-scatter and all-gather halves (about 1.3 ms at 400 GB/s).
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

BATCH = 4
SEQ = 8192
VOCAB = 128256
WIDTH = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ": 32, "VOCAB": 1000, "WIDTH": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"SEQ": 3001}]
cpu_extra_sizes = [{"SEQ": 19}]


class Model(nn.Module):
    def __init__(self, vocab: int, width: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        # Built whole on every rank from the same seed, then each keeps its rows: the ranks
        # together hold exactly one unsplit embedding table.
        table = nn.Embedding(vocab, width)
        part = vocab // ranks
        self.start = rank * part
        self.weight = nn.Parameter(table.weight.detach()[self.start:self.start + part].clone())

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        local = ids - self.start
        outside = (local < 0) | (local >= self.weight.shape[0])
        rows = F.embedding(local.masked_fill(outside, 0), self.weight)
        rows = rows.masked_fill(outside.unsqueeze(-1), 0.0)
        dist.all_reduce(rows)
        return rows


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws the same ids.
    ids = torch.randint(0, VOCAB, (BATCH, SEQ))
    return [ids]


def get_init_inputs():
    return [VOCAB, WIDTH]
