"""DETR transformer decoder: object queries (learned query position embeddings, content starting
at zero) pass through post-norm decoder layers of self-attention among the queries, cross-attention
to the flattened image features (positional encodings added to queries and keys, not values) and
a ReLU feed-forward, each followed by residual + LayerNorm; a final LayerNorm.
Output (B, NUM_QUERIES, D_MODEL)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

# Sized so the GPU sets the time: at a batch of 32 the H200 queued 6.88 ms of GPU work with a host share of 0.61, and its identity
# speedups were 0.9961, then 0.9934 (docs/benchmarks.md, session 27).
BATCH = 64
FEATURE_H = 25  # stride-32 feature map of an 800 x 1088 image
FEATURE_W = 34
D_MODEL = 256
NUM_HEADS = 8
DIM_FEEDFORWARD = 2048
NUM_LAYERS = 6
NUM_QUERIES = 100

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "FEATURE_H": 8, "FEATURE_W": 10, "NUM_QUERIES": 20}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 15, "FEATURE_H": 23, "FEATURE_W": 29}]
cpu_extra_sizes = [{"BATCH": 3, "FEATURE_H": 7, "FEATURE_W": 5}]


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dim_feedforward: int):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, num_heads, dropout=0.0, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(d_model, num_heads, dropout=0.0, batch_first=True)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)

    def forward(self, tgt, memory, pos, query_pos):
        q = tgt + query_pos
        tgt = self.norm1(tgt + self.self_attn(q, q, tgt, need_weights=False)[0])
        attended = self.cross_attn(tgt + query_pos, memory + pos, memory, need_weights=False)[0]
        tgt = self.norm2(tgt + attended)
        return self.norm3(tgt + self.linear2(F.relu(self.linear1(tgt))))


class Model(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dim_feedforward: int, num_layers: int, num_queries: int):
        super().__init__()
        self.query_embed = nn.Embedding(num_queries, d_model)
        self.layers = nn.ModuleList([DecoderLayer(d_model, num_heads, dim_feedforward) for _ in range(num_layers)])
        self.norm = nn.LayerNorm(d_model)

    def forward(self, memory: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        query_pos = self.query_embed.weight  # (Q, D), broadcast over the batch
        tgt = memory.new_zeros(memory.shape[0], query_pos.shape[0], query_pos.shape[1])
        for layer in self.layers:
            tgt = layer(tgt, memory, pos, query_pos)
        return self.norm(tgt)


def get_inputs():
    memory = torch.randn(BATCH, FEATURE_H * FEATURE_W, D_MODEL)  # flattened backbone features
    pos = torch.randn(BATCH, FEATURE_H * FEATURE_W, D_MODEL)  # positional encodings
    return [memory, pos]


def get_init_inputs():
    return [D_MODEL, NUM_HEADS, DIM_FEEDFORWARD, NUM_LAYERS, NUM_QUERIES]
