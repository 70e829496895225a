"""How fast kernels run on memory another process owns (issue 18's exchange arena).

The reference process owns the arena a candidate's inputs travel in; the candidate's process copies
each input out of it before a call. This times, in a second process, a streaming kernel (relu out
of place) and a matrix-vector product over 1 GiB on: memory of its own, a legacy CUDA IPC mapping
(cuIpcOpenMemHandle), and a virtual-memory-management import (cuMemCreate exported as a POSIX file
descriptor, mapped with cuMemMap), each as a torch tensor over the pointer. On the H200 (session
19) the relu ran as fast on all three, yet level-1 identities computed on the legacy mapping fell
to a median of 0.959 and level1/16's matrix-vector product to 0.20: the product is the case to
watch.
Usage: python bench/ipc_mapping_speed.py   (needs a CUDA device)
"""
import ctypes
import os
import statistics
import subprocess
import sys

import torch

cuda = ctypes.CDLL("libcuda.so.1")
BYTES = 1 << 30
POSIX_FD = 1  # CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR


def check(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: CUresult {status}")


class Prop(ctypes.Structure):  # CUmemAllocationProp
    _fields_ = [("type", ctypes.c_int), ("requestedHandleTypes", ctypes.c_int), ("locType", ctypes.c_int),
                ("locId", ctypes.c_int), ("win32HandleMetaData", ctypes.c_void_p), ("compressionType", ctypes.c_ubyte),
                ("gpuDirectRDMACapable", ctypes.c_ubyte), ("usage", ctypes.c_ushort), ("reserved", ctypes.c_ubyte * 4)]


class IpcHandle(ctypes.Structure):  # CUipcMemHandle, passed by value
    _fields_ = [("reserved", ctypes.c_char * 64)]


class Access(ctypes.Structure):  # CUmemAccessDesc
    _fields_ = [("locType", ctypes.c_int), ("locId", ctypes.c_int), ("flags", ctypes.c_int)]


def prop():
    p = Prop()
    p.type, p.requestedHandleTypes, p.locType, p.locId = 1, POSIX_FD, 1, 0  # pinned, device 0
    return p


def granularity():
    g = ctypes.c_size_t()
    check(cuda.cuMemGetAllocationGranularity(ctypes.byref(g), ctypes.byref(prop()), 0), "granularity")
    return g.value


class View:  # a torch tensor over a raw device pointer, without a copy
    def __init__(self, ptr, n):
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": "<f4", "data": (ptr, False), "version": 3}


def median_ms(work, reps=30):
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        work()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def kernels_ms(x):
    """(relu, matrix-vector product) over the 1 GiB at x, in ms."""
    out = torch.empty_like(x)
    side = int(x.numel() ** 0.5)
    matrix, vector = x[: side * side].view(side, side), torch.ones(side, device="cuda")
    return median_ms(lambda: torch.clamp_min(x, 0, out=out)), median_ms(lambda: torch.mv(matrix, vector))


def child(legacy_hex, fd):
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    n = BYTES // 4
    own = torch.ones(n, device="cuda")
    rows = [("own memory", kernels_ms(own))]
    ptr = ctypes.c_uint64()
    handle = IpcHandle.from_buffer_copy(bytes.fromhex(legacy_hex))
    open_handle = getattr(cuda, "cuIpcOpenMemHandle_v2", None) or cuda.cuIpcOpenMemHandle
    check(open_handle(ctypes.byref(ptr), handle, ctypes.c_uint(1)), "cuIpcOpenMemHandle")
    rows.append(("legacy IPC mapping", kernels_ms(torch.as_tensor(View(ptr.value, n), device="cuda"))))
    h = ctypes.c_uint64()
    check(cuda.cuMemImportFromShareableHandle(ctypes.byref(h), ctypes.c_void_p(fd), POSIX_FD), "import")
    size = ((BYTES + granularity() - 1) // granularity()) * granularity()
    va = ctypes.c_uint64()
    check(cuda.cuMemAddressReserve(ctypes.byref(va), ctypes.c_size_t(size), ctypes.c_size_t(0), ctypes.c_uint64(0), ctypes.c_uint64(0)), "reserve")
    check(cuda.cuMemMap(va, ctypes.c_size_t(size), ctypes.c_size_t(0), h, ctypes.c_uint64(0)), "map")
    acc = Access(1, 0, 3)
    check(cuda.cuMemSetAccess(va, ctypes.c_size_t(size), ctypes.byref(acc), ctypes.c_size_t(1)), "access")
    rows.append(("VMM import (fd)", kernels_ms(torch.as_tensor(View(va.value, n), device="cuda"))))
    rows.append(("own memory again", kernels_ms(own)))
    for name, (relu, mv) in rows:
        print(f"  {name:<22} relu 1 GiB {relu:7.3f} ms ({2 * BYTES / relu / 1e6:5.0f} GB/s)   mv 1 GiB {mv:7.3f} ms ({BYTES / mv / 1e6:5.0f} GB/s)")


def main():
    torch.zeros(1, device="cuda")
    legacy = torch.ones(BYTES // 4, device="cuda")
    handle = IpcHandle()
    check(cuda.cuIpcGetMemHandle(ctypes.byref(handle), ctypes.c_uint64(legacy.data_ptr())), "cuIpcGetMemHandle")
    size = ((BYTES + granularity() - 1) // granularity()) * granularity()
    h = ctypes.c_uint64()
    check(cuda.cuMemCreate(ctypes.byref(h), ctypes.c_size_t(size), ctypes.byref(prop()), ctypes.c_uint64(0)), "cuMemCreate")
    fd = ctypes.c_int()
    check(cuda.cuMemExportToShareableHandle(ctypes.byref(fd), h, POSIX_FD, ctypes.c_uint64(0)), "export")
    print("benchmark: a memory-bound kernel on memory another process owns (median of 30, CUDA events)")
    subprocess.run([sys.executable, __file__, "--child", bytes(handle).hex(), str(fd.value)], pass_fds=(fd.value,), check=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]))
    else:
        main()
