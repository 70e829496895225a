"""The exit of a tensor-parallel block in Megatron-LM (without sequence parallelism), GPT-style, on
2 GPUs: each rank's row-parallel linear (attention's output projection or the MLP's fc2) has
left it a partial sum; an all-reduce sums the two ranks' partials, the linear's bias is added
once, then the residual, and the next block's LayerNorm (eps 1e-5, with weight and bias)
normalizes the new residual stream (Megatron's bias-dropout-add, dropout off, then the norm).
GPT-3-175B-sized width 12288, 16384 tokens (8 sequences of 2048). Rank r holds its partial
[16384, 12288] (a different one on each rank) and the residual stream [16384, 12288] (the same on
every rank); the linear's bias [12288] and the norm's weight and bias [12288] are the same on
every rank. Returns (normed, residual), each [16384, 12288], the same on every rank: the next
block's input and the updated residual stream.
Why it matters: this all-reduce and the elementwise tail after it run twice per layer, all
memory and NVLink traffic: eager PyTorch reduces into a buffer, then makes separate passes for
the bias, the residual and the norm over 768 MiB tensors. A fused kernel (inference engines such
as TensorRT-LLM fuse the all-reduce with the residual add and norm) sums the peer's values as
they arrive, adds bias and residual, and normalizes each row in one pass.
Sizing (arithmetic, not yet measured): the all-reduce moves 768 MiB each way over NVLink (about
2 ms), and eager's copy, adds and LayerNorm read and write about 7 GiB at 4.2 TB/s (about 1.7 ms):
about 4 ms.
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

world_size = 2

TOKENS = 16384
WIDTH = 12288
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 128, "WIDTH": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3001}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, width: int, eps: float):
        super().__init__()
        # Drawn from the same seed on every rank, so all ranks hold the same values; the norm's
        # weight near 1 and its bias near 0, as trained ones are.
        self.dense_bias = nn.Parameter(0.1 * torch.randn(width))
        self.norm_weight = nn.Parameter(1.0 + 0.1 * torch.randn(width))
        self.norm_bias = nn.Parameter(0.1 * torch.randn(width))
        self.eps = eps

    def forward(self, partial: torch.Tensor, residual: torch.Tensor):
        # all_reduce works in place: reduce a copy, so the input stays as it was drawn.
        summed = partial.clone()
        dist.all_reduce(summed)
        residual = summed + self.dense_bias + residual
        normed = F.layer_norm(residual, (residual.shape[-1],), self.norm_weight, self.norm_bias, self.eps)
        return normed, residual


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws every rank's partial in turn and keeps its
    # own (so the ranks' partials differ), then draws the residual stream all ranks share.
    partial = None
    for r in range(world_size):
        drawn = torch.randn(TOKENS, WIDTH)
        if r == rank:
            partial = drawn
        del drawn
    residual = torch.randn(TOKENS, WIDTH)
    return [partial, residual]


def get_init_inputs():
    return [WIDTH, EPS]
