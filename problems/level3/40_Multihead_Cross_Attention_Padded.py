"""Multi-head cross-attention from decoder queries to a padded encoder memory of another width:
separate Q, K, V projections (K/V from MEMORY_DIM), scores masked to -inf past each batch item's
memory length, softmax over the memory, weighted sum of V and an output projection."""
import math

import torch
import torch.nn as nn

BATCH = 32
QUERY_LEN = 256
MEMORY_LEN = 1024
EMBED_DIM = 768
MEMORY_DIM = 512
NUM_HEADS = 12

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "QUERY_LEN": 32, "MEMORY_LEN": 96}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "QUERY_LEN": 97}]
cpu_extra_sizes = [{"BATCH": 3, "QUERY_LEN": 19}]


class Model(nn.Module):
    def __init__(self, embed_dim: int, memory_dim: int, num_heads: int, memory_len: int):
        super().__init__()
        self.num_heads = num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(memory_dim, embed_dim)
        self.v_proj = nn.Linear(memory_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        with torch.no_grad():
            # Query and key weights scaled up so the scores spread (std ~1.3) as in a trained model;
            # with the default init the softmax is close to a plain average over the memory.
            self.q_proj.weight.mul_(2.0)
            self.k_proj.weight.mul_(2.0)
        self.register_buffer("positions", torch.arange(memory_len))  # int64, for the padding mask

    def forward(self, queries: torch.Tensor, memory: torch.Tensor, memory_lengths: torch.Tensor) -> torch.Tensor:
        b, tq, c = queries.shape
        tk = memory.shape[1]
        d = c // self.num_heads
        q = self.q_proj(queries).view(b, tq, self.num_heads, d).transpose(1, 2)
        k = self.k_proj(memory).view(b, tk, self.num_heads, d).transpose(1, 2)
        v = self.v_proj(memory).view(b, tk, self.num_heads, d).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(d)  # (B, heads, Tq, Tk)
        padded = self.positions[:tk].view(1, tk) >= memory_lengths.view(b, 1)  # (B, Tk)
        scores = scores.masked_fill(padded[:, None, None, :], float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v
        return self.out_proj(y.transpose(1, 2).reshape(b, tq, c))


def get_inputs():
    queries = torch.randn(BATCH, QUERY_LEN, EMBED_DIM)
    memory = torch.randn(BATCH, MEMORY_LEN, MEMORY_DIM)
    memory_lengths = torch.randint(MEMORY_LEN // 4, MEMORY_LEN + 1, (BATCH,))  # int64, at least 1
    return [queries, memory, memory_lengths]


def get_init_inputs():
    return [EMBED_DIM, MEMORY_DIM, NUM_HEADS, MEMORY_LEN]
