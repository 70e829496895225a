"""Megatron-LM's sequence parallelism on 2 GPUs, entering a tensor-parallel attention block:
between blocks each rank holds only its shard of the tokens (the layer norm and dropout run on
shards), so before the column-parallel QKV projection an all-gather assembles the full sequence
on every rank. The projection is Megatron's fused query_key_value linear, whose output rows are
grouped by head, so each rank's contiguous half of them is the q, k and v of half the heads.
Llama-2-7B-sized width 4096 (32 heads of 128, 16 per rank) with biases (GPT-style), 8192 tokens
(4 sequences of 2048). Rank r holds tokens x[r] [4096, 4096] (the full sequence is [8192, 4096])
and W[r] [6144, 4096], b[r] [6144] (of the fused [12288, 4096] and [12288]). Returns this rank's
q, k and v for all tokens, [8192, 6144].
Why it matters: sequence parallelism saves the activation memory of every norm and dropout, but
puts an all-gather of 4096 x 4096 fp32 values (64 MiB) from the peer in front of each
column-parallel GEMM; multiplying the local shard's rows while the peer's arrive (or pulling
them tile by tile inside the GEMM) hides it.
Sizing (arithmetic, not yet measured): a GEMM of 8192 x 6144 x 4096 per rank, 0.41 TFLOP at the
H200's 50 TFLOP/s in fp32 = 8.2 ms, plus the all-gather's 64 MiB over NVLink (about 0.17 ms).
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

TOKENS = 8192
WIDTH = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "WIDTH": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3002}]
cpu_extra_sizes = [{"TOKENS": 38}]


class Model(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        # Built whole on every rank from the same seed, then each keeps its shard: the ranks
        # together hold exactly one unsplit QKV projection.
        qkv = nn.Linear(width, 3 * width)
        part = 3 * width // ranks
        rows = slice(rank * part, (rank + 1) * part)
        self.weight = nn.Parameter(qkv.weight.detach()[rows].clone())
        self.bias = nn.Parameter(qkv.bias.detach()[rows].clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        full = x.new_empty((x.shape[0] * dist.get_world_size(), x.shape[1]))
        dist.all_gather_into_tensor(full, x.contiguous())
        return F.linear(full, self.weight, self.bias)


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws the same full sequence and keeps its own
    # contiguous shard of the tokens (TOKENS is a multiple of world_size).
    x = torch.randn(TOKENS, WIDTH)
    part = TOKENS // world_size
    return [x[rank * part:(rank + 1) * part].clone()]


def get_init_inputs():
    return [WIDTH]
