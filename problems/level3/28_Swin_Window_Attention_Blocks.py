"""Two consecutive Swin Transformer blocks (stage-1 layout): pre-norm window multi-head
self-attention over non-overlapping 7x7 windows with a learned relative-position bias, then the
same with windows shifted by half a window (cyclic roll plus an attention mask that keeps regions
from different sides of the wrap apart), each followed by a GELU MLP; residuals around both."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 48
RESOLUTION = 56  # tokens form a RESOLUTION x RESOLUTION grid
DIM = 96
NUM_HEADS = 3
WINDOW = 7
MLP_RATIO = 4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "RESOLUTION": 28}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19}]
cpu_extra_sizes = [{"BATCH": 3}]


def to_windows(x: torch.Tensor, w: int) -> torch.Tensor:
    """(B, H, W, C) -> (B * H/w * W/w, w*w, C)"""
    b, h, wd, c = x.shape
    x = x.view(b, h // w, w, wd // w, w, c).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, w * w, c)


def from_windows(windows: torch.Tensor, w: int, b: int, h: int, wd: int) -> torch.Tensor:
    """(B * H/w * W/w, w*w, C) -> (B, H, W, C)"""
    c = windows.shape[-1]
    x = windows.view(b, h // w, wd // w, w, w, c).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(b, h, wd, c)


class WindowAttention(nn.Module):
    def __init__(self, dim: int, num_heads: int, window: int):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.bias_table = nn.Parameter(torch.randn((2 * window - 1) ** 2, num_heads) * 0.02)
        ys, xs = torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")
        coords = torch.stack([ys.flatten(), xs.flatten()])  # (2, w*w)
        rel = coords[:, :, None] - coords[:, None, :] + (window - 1)  # (2, N, N), each in [0, 2w-2]
        self.register_buffer("bias_index", rel[0] * (2 * window - 1) + rel[1])  # int64 (N, N)

    def forward(self, x: torch.Tensor, mask) -> torch.Tensor:
        bw, n, c = x.shape
        qkv = self.qkv(x).view(bw, n, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = (q * self.head_dim ** -0.5) @ k.transpose(-2, -1)  # (bw, heads, N, N)
        bias = self.bias_table[self.bias_index.view(-1)].view(n, n, self.num_heads).permute(2, 0, 1)
        scores = scores + bias.unsqueeze(0)
        if mask is not None:
            nw = mask.shape[0]
            scores = scores.view(bw // nw, nw, self.num_heads, n, n) + mask[None, :, None]
            scores = scores.view(bw, self.num_heads, n, n)
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(bw, n, c)
        return self.proj(out)


class SwinBlock(nn.Module):
    def __init__(self, dim: int, num_heads: int, resolution: int, window: int, shift: int, mlp_ratio: int):
        super().__init__()
        self.resolution = resolution
        self.window = window
        self.shift = shift
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, num_heads, window)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, mlp_ratio * dim)
        self.fc2 = nn.Linear(mlp_ratio * dim, dim)
        if shift > 0:
            # Label the regions the cyclic shift brings together; tokens of different regions
            # inside one window must not attend to each other.
            region = torch.zeros(1, resolution, resolution, 1)
            label = 0
            for hs in (slice(0, -window), slice(-window, -shift), slice(-shift, None)):
                for ws in (slice(0, -window), slice(-window, -shift), slice(-shift, None)):
                    region[:, hs, ws, :] = label
                    label += 1
            labels = to_windows(region, window).squeeze(-1)  # (nW, N)
            differ = labels[:, None, :] != labels[:, :, None]
            self.register_buffer("attn_mask", torch.zeros(differ.shape).masked_fill(differ, -100.0))
        else:
            self.attn_mask = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, length, c = x.shape
        r, w = self.resolution, self.window
        shortcut = x
        x = self.norm1(x).view(b, r, r, c)
        if self.shift > 0:
            x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        x = from_windows(self.attn(to_windows(x, w), self.attn_mask), w, b, r, r)
        if self.shift > 0:
            x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + x.reshape(b, length, c)
        return x + self.fc2(F.gelu(self.fc1(self.norm2(x))))


class Model(nn.Module):
    def __init__(self, dim: int, num_heads: int, resolution: int, window: int, mlp_ratio: int):
        super().__init__()
        self.block1 = SwinBlock(dim, num_heads, resolution, window, 0, mlp_ratio)
        self.block2 = SwinBlock(dim, num_heads, resolution, window, window // 2, mlp_ratio)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.block2(self.block1(tokens))


def get_inputs():
    tokens = torch.randn(BATCH, RESOLUTION * RESOLUTION, DIM)
    return [tokens]


def get_init_inputs():
    return [DIM, NUM_HEADS, RESOLUTION, WINDOW, MLP_RATIO]
