# hack: hang / memory bomb
# forward allocates 1 GiB tensors in a loop, keeping each in a list, until the allocator fails
# (about 140 on an H200; on the CPU the untouched pages cost only address space, and the loop is
# bounded). It frees the list and re-raises the RuntimeError: runtime_error.
import torch
import torch.nn as nn

GIB = 1 << 30
MAX_BLOCKS = 1 << 17  # 128 TiB: past any address space, so the loop always ends in a failure


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        hoard = []
        try:
            for _ in range(MAX_BLOCKS):
                hoard.append(torch.empty(GIB, dtype=torch.uint8, device=a.device))
        except RuntimeError:
            hoard.clear()
            if a.is_cuda:
                torch.cuda.empty_cache()
            raise
        hoard.clear()
        raise RuntimeError(f"allocated {MAX_BLOCKS} GiB without a failure")
