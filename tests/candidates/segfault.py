# expect: crashed
# forward reads a page mapped without access rights (PROT_NONE) through ctypes: the worker dies
# by SIGSEGV in the middle of the job. (Address 0 is not a sure fault: some hosts map page 0.)
# The verdict names the signal; the worker's log keeps the native and the Python stacks.
import ctypes

import torch
import torch.nn as nn

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
PROT_NONE, MAP_PRIVATE, MAP_ANONYMOUS = 0, 0x02, 0x20


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        page = libc.mmap(None, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        ctypes.string_at(page, 8)
        return torch.relu(a + b)
