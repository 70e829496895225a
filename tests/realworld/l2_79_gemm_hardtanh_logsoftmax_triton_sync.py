import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hardtanh_log_softmax_kernel(
    in_ptr,
    out_ptr,
    n_cols,
    in_row_stride,
    out_row_stride,
    min_val,
    max_val,
    BLOCK_SIZE: tl.constexpr,
):
    # one program handles one row; the whole row (10000 classes) fits in one block
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    row_start = in_ptr + row_idx * in_row_stride
    x = tl.load(row_start + col_offsets, mask=mask, other=0.0)
    x = tl.minimum(tl.maximum(x, min_val), max_val)
    # padding lanes must not take part in the max / sum
    x = tl.where(mask, x, float("-inf"))

    row_max = tl.max(x, axis=0)
    shifted = x - row_max
    sum_exp = tl.sum(tl.exp(shifted), axis=0)
    out = shifted - tl.log(sum_exp)

    tl.store(out_ptr + row_idx * out_row_stride + col_offsets, out, mask=mask)


def hardtanh_log_softmax(y: torch.Tensor, min_val: float = -2.0, max_val: float = 2.0) -> torch.Tensor:
    y = y.contiguous()
    n_rows, n_cols = y.shape
    out = torch.empty_like(y)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 4
    if BLOCK_SIZE >= 2048:
        num_warps = 8
    if BLOCK_SIZE >= 8192:
        num_warps = 16
    grid = (triton.cdiv(n_rows, 1),)
    hardtanh_log_softmax_kernel[grid](
        y,
        out,
        n_cols,
        y.stride(0),
        out.stride(0),
        min_val,
        max_val,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=num_warps,
    )
    return out


class ModelNew(nn.Module):
    def __init__(self, in_features: int, num_classes: int):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        out = hardtanh_log_softmax(y, -2.0, 2.0)
        torch.cuda.synchronize()
        return out
