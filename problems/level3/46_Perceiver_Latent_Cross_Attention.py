"""Perceiver encoder step: a learned array of latents reads a long input array through
single-head cross-attention (LayerNorm on both sides, queries from the latents, keys/values from
the inputs), a GELU MLP, then a small latent transformer (pre-norm multi-head self-attention +
MLP blocks) runs on the latents only. Output the latents (B, NUM_LATENTS, LATENT_DIM)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
INPUT_LEN = 4096
INPUT_DIM = 256
NUM_LATENTS = 256
LATENT_DIM = 512
NUM_HEADS = 8
NUM_LATENT_BLOCKS = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "INPUT_LEN": 256, "NUM_LATENTS": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "INPUT_LEN": 2999}]
cpu_extra_sizes = [{"BATCH": 3, "INPUT_LEN": 97}]


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v


class MLP(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class LatentBlock(nn.Module):
    def __init__(self, dim: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.mlp = MLP(dim)

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        b, n, c = z.shape
        q, k, v = self.qkv(self.norm(z)).view(b, n, 3, self.num_heads, c // self.num_heads).permute(2, 0, 3, 1, 4)
        z = z + self.out(attend(q, k, v).transpose(1, 2).reshape(b, n, c))
        return self.mlp(z)


class Model(nn.Module):
    def __init__(self, input_dim: int, num_latents: int, latent_dim: int, num_heads: int, num_blocks: int):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim) * 0.02)
        self.norm_latents = nn.LayerNorm(latent_dim)
        self.norm_inputs = nn.LayerNorm(input_dim)
        self.to_q = nn.Linear(latent_dim, latent_dim, bias=False)
        self.to_k = nn.Linear(input_dim, latent_dim, bias=False)
        self.to_v = nn.Linear(input_dim, latent_dim, bias=False)
        # Query/key weights scaled so the cross-attention logits spread like a trained model's
        # (std about 2) instead of giving a near-uniform average over all inputs.
        nn.init.normal_(self.to_q.weight, std=1.5 / math.sqrt(latent_dim))
        nn.init.normal_(self.to_k.weight, std=1.5 / math.sqrt(input_dim))
        self.cross_out = nn.Linear(latent_dim, latent_dim)
        self.cross_mlp = MLP(latent_dim)
        self.blocks = nn.ModuleList([LatentBlock(latent_dim, num_heads) for _ in range(num_blocks)])

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        q = self.to_q(self.norm_latents(self.latents))  # (N, D): the same queries for every batch item
        x = self.norm_inputs(inputs)
        k, v = self.to_k(x), self.to_v(x)  # (B, M, D)
        z = self.latents + self.cross_out(attend(q, k, v))  # (B, N, D)
        z = self.cross_mlp(z)
        for block in self.blocks:
            z = block(z)
        return z


def get_inputs():
    inputs = torch.randn(BATCH, INPUT_LEN, INPUT_DIM)
    return [inputs]


def get_init_inputs():
    return [INPUT_DIM, NUM_LATENTS, LATENT_DIM, NUM_HEADS, NUM_LATENT_BLOCKS]
