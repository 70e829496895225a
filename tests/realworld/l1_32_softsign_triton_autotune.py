import torch
import torch.nn as nn
import triton
import triton.language as tl


# Softsign x / (1 + |x|): PyTorch runs abs, add and div as three kernels (three
# round trips through HBM). One Triton kernel does it in a single pass; the block
# size and warp count are autotuned per problem size.
@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 8192}, num_warps=16),
    ],
    key=["n_elements"],
)
@triton.jit
def softsign_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = x / (1.0 + tl.abs(x))
    tl.store(y_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n_elements = x.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
        softsign_kernel[grid](x, y, n_elements)
        return y


BATCH = 16
SEQ_LEN = 4096
HIDDEN = 8192


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, HIDDEN, device="cuda") * 2.0
    return [x]


def get_init_inputs():
    return []
