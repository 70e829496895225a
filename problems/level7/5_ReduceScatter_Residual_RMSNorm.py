"""The exit of a tensor-parallel block under Megatron-LM's sequence parallelism, Llama-style, on 2
GPUs: each rank's row-parallel linear has left it a partial sum over all tokens; a
reduce-scatter over the token dimension sums the two ranks' partials and gives each rank its own
shard of the tokens, which is added to that shard of the residual stream, and the next block's
RMSNorm (eps 1e-5, one weight shared by all ranks) normalizes the new residual. Llama-2-70B-sized
width 8192, 32768 tokens (8 sequences of 4096). Rank r holds its partial [32768, 8192] (a
different one on each rank) and the residual rows r * 16384 to (r + 1) * 16384, [16384, 8192];
the norm weight [8192] is the same on every rank. Returns (normed, residual) for this rank's
tokens, each [16384, 8192]: the next block's input and the updated residual stream.
Why it matters: this runs twice per layer (after attention and after the MLP) and is all memory
and NVLink traffic: eager PyTorch reduce-scatters into a buffer, then makes separate passes for
the add and the norm over 512 MiB shards. A fused kernel reduces the peer's half as it arrives,
adds the residual and normalizes each row in one pass (inference engines such as TensorRT-LLM
fuse the all-reduce form of this; the reduce-scatter form is the sequence-parallel one).
Sizing (arithmetic, not yet measured): the reduce-scatter moves 512 MiB each way over NVLink
(about 1.3 ms), and eager's add and RMSNorm read and write 3 to 5 GiB of 512 MiB tensors at
4.2 TB/s (about 1 ms): 2 to 3 ms.
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

TOKENS = 32768
WIDTH = 8192
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 128, "WIDTH": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3002}]
cpu_extra_sizes = [{"TOKENS": 74}]


class Model(nn.Module):
    def __init__(self, width: int, eps: float):
        super().__init__()
        # Drawn from the same seed on every rank, so all ranks hold one weight; near 1, as a
        # trained norm's weight is (all ones would leave the output independent of it).
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(width))
        self.eps = eps

    def forward(self, partial: torch.Tensor, residual: torch.Tensor):
        summed = residual.new_empty(residual.shape)
        dist.reduce_scatter_tensor(summed, partial)
        residual = summed + residual
        normed = F.rms_norm(residual, (residual.shape[-1],), self.weight, self.eps)
        return normed, residual


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws every rank's partial in turn and keeps its
    # own (so the ranks' partials differ), then draws the whole residual stream and keeps its
    # tokens. TOKENS is a multiple of world_size.
    partial = None
    for r in range(world_size):
        drawn = torch.randn(TOKENS, WIDTH)
        if r == rank:
            partial = drawn
        del drawn
    residual = torch.randn(TOKENS, WIDTH)
    part = TOKENS // world_size
    return [partial, residual[rank * part:(rank + 1) * part].clone()]


def get_init_inputs():
    return [WIDTH, EPS]
