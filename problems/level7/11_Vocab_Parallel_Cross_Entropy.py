"""Megatron-LM's vocab-parallel cross-entropy on 2 GPUs: the LM head is column-parallel, so each
rank holds the logits of its contiguous half of the vocabulary and the full [tokens, vocab]
logits never exist on one GPU. The loss is computed without gathering them: an all-reduce (MAX)
of each rank's row maxima, an all-reduce (SUM) of the row sums of exp(logit - max), and an
all-reduce (SUM) of the target's shifted logit, which only the rank owning the target's vocabulary
range contributes (the other masks it to zero); the loss is log(sum) minus that logit.
Llama-3's vocabulary of 128256 (64128 per rank), 16384 tokens (2 sequences of 8192).
logits [16384, 64128] on each rank (its vocabulary half of the full [16384, 128256], std 2: a
peaked distribution rather than a near-uniform one) and target [16384] int64 on every rank (the
same ids, over the whole vocabulary). Returns the per-token loss [16384] on every rank (not
reduced to the mean, which would be near-constant from one input to the next).
Why it matters: the logits are the largest activation of a language model's step (here 3.9 GiB
per rank in fp32), and the unfused reference passes over them four times (max, subtract, exp,
sum), writing two full-size temporaries; a kernel that reads them once (online max and sum in
one pass, as the fused cross-entropies of Liger and Apex do) and merges the last two
all-reduces into one is bound by the HBM's speed.
Sizing (arithmetic, not yet measured): 4.2 GB of fp32 logits per rank, read by the max and the
sum and read and written by the subtraction and the exp, 6 x 4.2 GB = 25 GB at the H200's
4.2 TB/s = 6 ms; the all-reduces move 3 x 64 KiB.
"""
import torch
import torch.distributed as dist
import torch.nn as nn

world_size = 2

TOKENS = 16384
VOCAB = 128256

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "VOCAB": 1000}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 5001, "VOCAB": 50304}]
cpu_extra_sizes = [{"TOKENS": 37, "VOCAB": 502}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        part = logits.shape[1]
        start = dist.get_rank() * part
        logits = logits.float()
        row_max = logits.amax(dim=-1)
        dist.all_reduce(row_max, op=dist.ReduceOp.MAX)
        shifted = logits - row_max.unsqueeze(1)
        # The target's logit, from the rank whose vocabulary range holds it.
        local = target - start
        outside = (local < 0) | (local >= part)
        picked = shifted.gather(1, local.masked_fill(outside, 0).unsqueeze(1)).squeeze(1)
        picked = picked.masked_fill(outside, 0.0)
        sum_exp = shifted.exp().sum(dim=-1)
        dist.all_reduce(picked)
        dist.all_reduce(sum_exp)
        return sum_exp.log() - picked


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws the full logits and keeps its own contiguous
    # half of the vocabulary (VOCAB is a multiple of world_size, as Megatron pads it); the
    # targets are the same on every rank.
    logits = torch.randn(TOKENS, VOCAB).mul_(2.0)
    target = torch.randint(0, VOCAB, (TOKENS,))
    part = VOCAB // world_size
    return [logits[:, rank * part:(rank + 1) * part].clone(), target]


def get_init_inputs():
    return []
