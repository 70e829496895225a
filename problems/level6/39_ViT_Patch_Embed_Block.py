"""Training step of a ViT-B/16 stem and first encoder block: 224x224 RGB images are cut into
16x16 patches by a stride-16 convolution (3 -> 768 channels, with bias), flattened to 196 tokens,
a learned class token is prepended and a learned position embedding [1, 197, 768] added; then one
pre-norm encoder block: LayerNorm -> fused QKV projection (768 -> 3 x 768, bias) -> attention over
12 heads of 64 (no mask) -> output projection (bias) -> residual; LayerNorm -> MLP (768 -> 3072,
exact GELU, 3072 -> 768, biases) -> residual. Batch of 128 images [128, 3, 224, 224]; returns the
token states [128, 197, 768]; kforge drives backward with a random upstream gradient of that
shape.
Compared: the output and the gradients of all sixteen parameters (patch conv weight and bias,
class token, position embedding, two LayerNorms' weight and bias, QKV, output projection and the
two MLP layers' weights and biases). Not the images' gradient (grad_inputs = []): a training step
does not differentiate its input pixels.
Why it matters: this is what a ViT training step repeats twelve times (plus the stem once); 197
tokens (not a multiple of 64 or 128) make the attention and GEMM tiles awkward, and the patch
convolution's weight gradient is a GEMM over every pixel of the batch.
Precision: bf16 weights, activations and gradients; LayerNorm statistics and normalisation in
fp32, rounded once; GEMMs, convolution and attention accumulate in fp32.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: ViTs are trained in bf16 mixed precision.
precision = "bf16"
mode = "train"

BATCH = 128
IMAGE_SIZE = 224
PATCH = 16
EMBED = 768
HEADS = 12
MLP = 3072
EPS = 1e-6

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "IMAGE_SIZE": 32, "EMBED": 64, "HEADS": 4, "MLP": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
# (The position embedding fixes the image size, so only the batch varies.)
extra_sizes = [{"BATCH": 37}]
cpu_extra_sizes = [{"BATCH": 3}]

# No input's gradient is compared: the images are data.
grad_inputs = []


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    return F.layer_norm(x.float(), (x.shape[-1],), weight.float(), bias.float(), eps).to(x.dtype)


class Model(nn.Module):
    def __init__(self, image_size: int, patch: int, embed: int, heads: int, mlp: int, eps: float):
        super().__init__()
        self.patch, self.heads, self.eps = patch, heads, eps
        tokens = (image_size // patch) ** 2 + 1
        self.patch_w = nn.Parameter(torch.randn(embed, 3, patch, patch) * (3 * patch * patch) ** -0.5)
        self.patch_b = nn.Parameter(torch.randn(embed) * 0.02)
        self.cls = nn.Parameter(torch.randn(1, 1, embed) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, tokens, embed) * 0.02)
        self.ln1_w = nn.Parameter(1.0 + 0.1 * torch.randn(embed))
        self.ln1_b = nn.Parameter(0.1 * torch.randn(embed))
        w_qkv = torch.randn(3 * embed, embed) * embed ** -0.5
        w_qkv[:embed] *= 2.0  # queries at twice unit scale: peaked attention, as trained
        self.w_qkv = nn.Parameter(w_qkv)
        self.b_qkv = nn.Parameter(torch.randn(3 * embed) * 0.02)
        # Residual branches' last layers at half unit scale: small next to the stream.
        self.w_proj = nn.Parameter(torch.randn(embed, embed) * (0.5 * embed ** -0.5))
        self.b_proj = nn.Parameter(torch.randn(embed) * 0.02)
        self.ln2_w = nn.Parameter(1.0 + 0.1 * torch.randn(embed))
        self.ln2_b = nn.Parameter(0.1 * torch.randn(embed))
        self.w_fc1 = nn.Parameter(torch.randn(mlp, embed) * embed ** -0.5)
        self.b_fc1 = nn.Parameter(torch.randn(mlp) * 0.02)
        self.w_fc2 = nn.Parameter(torch.randn(embed, mlp) * (0.5 * mlp ** -0.5))
        self.b_fc2 = nn.Parameter(torch.randn(embed) * 0.02)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        b = images.shape[0]
        patches = F.conv2d(images, self.patch_w, self.patch_b, stride=self.patch)  # [b, e, gh, gw]
        x = torch.cat([self.cls.expand(b, -1, -1), patches.flatten(2).transpose(1, 2)], dim=1) + self.pos
        n, e = x.shape[1], x.shape[2]
        h = self.heads
        qkv = F.linear(layer_norm(x, self.ln1_w, self.ln1_b, self.eps), self.w_qkv, self.b_qkv)
        q, k, v = qkv.view(b, n, 3, h, e // h).permute(2, 0, 3, 1, 4).unbind(0)  # each [b, h, n, d]
        attn = F.scaled_dot_product_attention(q, k, v)
        x = x + F.linear(attn.transpose(1, 2).reshape(b, n, e), self.w_proj, self.b_proj)
        hidden = F.gelu(F.linear(layer_norm(x, self.ln2_w, self.ln2_b, self.eps), self.w_fc1, self.b_fc1))
        return x + F.linear(hidden, self.w_fc2, self.b_fc2)


def get_inputs():
    # Normalised pixels (zero mean, unit variance per channel, as after the usual transform).
    images = torch.randn(BATCH, 3, IMAGE_SIZE, IMAGE_SIZE)
    return [images]


def get_init_inputs():
    return [IMAGE_SIZE, PATCH, EMBED, HEADS, MLP, EPS]
