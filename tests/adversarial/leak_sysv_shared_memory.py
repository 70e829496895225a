# hack: leak / shared memory
# __init__ makes a System V shared memory segment of 64 MiB under a fixed key, fills it and detaches:
# memory the kernel keeps until someone removes it, counted in no process's resident set, that
# outlived the candidate's process, kforge and the worker (`ipcs -m` after the run on the CPU
# before session 42), for the next candidate to attach by its key. No file is involved, so
# Landlock cannot confine it; the candidate's seccomp filter now denies System V IPC and POSIX
# message queues (seccomp::lingering_ipc_calls): load_error, "Operation not permitted".
import ctypes
import os

import torch
import torch.nn as nn

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
KEY = 0x6B666F72
BYTES = 64 << 20


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        segment = libc.shmget(KEY, ctypes.c_size_t(BYTES), 0o1000 | 0o600)  # IPC_CREAT
        if segment < 0:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), "shmget")
        address = libc.shmat(segment, None, 0)
        ctypes.memset(address, 0x73, BYTES)
        libc.shmdt(ctypes.c_void_p(address))

    def forward(self, a, b):
        return torch.relu(a + b)
