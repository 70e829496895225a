"""Ring Attention (Liu et al. 2023), the context parallelism of Megatron-LM and of long-video
diffusion transformers (xDiT, the Wan and HunyuanVideo inference stacks), on 2 GPUs: one
6144-token sequence is split into contiguous halves, and each rank holds the queries, keys and
values of its 3072 tokens. Bidirectional (non-causal) attention, as a video DiT's is: every query
attends to all 6144 keys. The keys and values travel around the ring (send to rank r + 1, receive
from rank r - 1, posted together with batch_isend_irecv) while the block in hand is processed,
and each rank accumulates its output with the online softmax in fp32 (running row maximum and
sum, rescaled when a block raises the maximum). 24 heads of 128 (HunyuanVideo's 3072-wide
blocks), batch 1. q, k, v [1, 24, 3072, 128] on each rank (its tokens); the scale is 1/sqrt(128).
Returns this rank's output [1, 24, 3072, 128].
Queries are drawn with std 2 and keys with std 1, so the scores have std 2: a peaked softmax as
trained attention's is, rather than a near-uniform average whose output would be close to zero.
Why it matters: attention's memory and time grow with the square of the sequence, and context
parallelism is how sequences too long for one GPU (video, long documents) are run; the ring hides
the 72 MiB of keys and values each rank receives behind a block of attention, and a fused kernel
(flash attention returning its log-sum-exp, as ring-flash-attention and Transformer Engine use)
never writes the [3072, 3072] score blocks that the reference materialises.
Sizing (arithmetic, not yet measured): QK^T and PV over 3072 queries x 6144 keys x 24 heads,
4 x 24 x 3072 x 6144 x 128 = 0.23 TFLOP per rank at the H200's 50 TFLOP/s in fp32 = 4.6 ms, plus
about 7 passes over two 864 MiB fp32 score blocks in eager (12 GB at 4.2 TB/s, about 3 ms), plus
the ring's exchange of 72 MiB over NVLink (about 0.2 ms).
"""
import torch
import torch.distributed as dist
import torch.nn as nn

world_size = 2

BATCH = 1
HEADS = 24
SEQ = 6144
HEAD_DIM = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"HEADS": 2, "SEQ": 64, "HEAD_DIM": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"SEQ": 4002}]
cpu_extra_sizes = [{"SEQ": 46}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        rank, ranks = dist.get_rank(), dist.get_world_size()
        q = q.float() * q.shape[-1] ** -0.5
        kv = torch.stack([k, v])  # one buffer travels the ring
        for step in range(ranks):
            if step + 1 < ranks:
                # Pass the block in hand on and take the previous rank's, while computing.
                incoming = torch.empty_like(kv)
                works = dist.batch_isend_irecv([dist.P2POp(dist.isend, kv, (rank + 1) % ranks),
                                                dist.P2POp(dist.irecv, incoming, (rank - 1) % ranks)])
            scores = q @ kv[0].float().transpose(-1, -2)  # [batch, heads, mine, block], fp32
            block_max = scores.amax(dim=-1, keepdim=True)
            if step == 0:
                row_max = block_max
                p = torch.exp(scores - row_max)
                row_sum = p.sum(dim=-1, keepdim=True)
                acc = p @ kv[1].float()
            else:
                new_max = torch.maximum(row_max, block_max)
                rescale = torch.exp(row_max - new_max)
                p = torch.exp(scores - new_max)
                row_sum = row_sum * rescale + p.sum(dim=-1, keepdim=True)
                acc = acc * rescale + p @ kv[1].float()
                row_max = new_max
            if step + 1 < ranks:
                for work in works:
                    work.wait()
                kv = incoming
        return (acc / row_sum).to(k.dtype)


def get_inputs(rank: int, world_size: int):
    # The same seed on every rank: every rank draws the whole sequence and keeps its own
    # contiguous chunk of the tokens (SEQ is a multiple of world_size).
    q = torch.randn(BATCH, HEADS, SEQ, HEAD_DIM).mul_(2.0)
    k = torch.randn(BATCH, HEADS, SEQ, HEAD_DIM)
    v = torch.randn(BATCH, HEADS, SEQ, HEAD_DIM)
    part = SEQ // world_size
    mine = slice(rank * part, (rank + 1) * part)
    return [q[:, :, mine].clone(), k[:, :, mine].clone(), v[:, :, mine].clone()]


def get_init_inputs():
    return []
