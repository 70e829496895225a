"""Gather a paged KV cache into contiguous, packed K and V (what chunked-prefill and MLA-prefill
paths do before a dense attention kernel). The cache pool is [num_blocks, 2 (K, V), block_size
16, 8 KV heads, head_dim 128]; block_table [batch, max_blocks] (int32) maps each sequence's
logical block i to a physical block (blocks may be shared between sequences, as with prefix
caching; entries past a sequence's length are unused); seq_lens (int64, each in [1, MAX_LEN])
give the tokens per sequence. Token t of sequence s lives at pool[block_table[s, t // 16], :,
t % 16]. Returns (K, V), each [sum(seq_lens), 8, 128], sequences packed one after the other.
Precision: bf16 (the pool; the gather moves values without arithmetic).
"""
import torch
import torch.nn as nn

# bf16: the usual KV-cache dtype; the kernel is a pure memory move, so its bytes set the time.
precision = "bf16"

BATCH = 128
MAX_LEN = 8192
BLOCK_SIZE = 16
NUM_BLOCKS = 16384
KV_HEADS = 8
HEAD_DIM = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "MAX_LEN": 512, "NUM_BLOCKS": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 61, "MAX_LEN": 4999, "NUM_BLOCKS": 9973}]
cpu_extra_sizes = [{"BATCH": 5, "MAX_LEN": 333, "NUM_BLOCKS": 199}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, kv_pool: torch.Tensor, block_table: torch.Tensor, seq_lens: torch.Tensor):
        block_size = kv_pool.shape[2]
        seq = torch.repeat_interleave(seq_lens)  # sequence of each packed token
        starts = torch.cumsum(seq_lens, dim=0) - seq_lens
        pos = torch.ones_like(seq).cumsum(dim=0) - 1 - starts[seq]  # position inside its sequence
        block = block_table[seq, pos // block_size].long()
        offset = pos % block_size
        return kv_pool[block, 0, offset], kv_pool[block, 1, offset]


def get_inputs():
    kv_pool = torch.randn(NUM_BLOCKS, 2, BLOCK_SIZE, KV_HEADS, HEAD_DIM)
    max_blocks = (MAX_LEN + BLOCK_SIZE - 1) // BLOCK_SIZE
    block_table = torch.randint(0, NUM_BLOCKS, (BATCH, max_blocks), dtype=torch.int32)
    seq_lens = torch.randint(1, MAX_LEN + 1, (BATCH,))
    return [kv_pool, block_table, seq_lens]


def get_init_inputs():
    return []
