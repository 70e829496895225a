"""kforge worker entry point: import torch, then hand control to the C++ job loop (src/worker/)."""
import ctypes
import faulthandler
import os
import socket
import subprocess
import sys
import threading


def _open_cuda_context():
    """Creates the GPU's primary context while torch's libraries load.

    Both take seconds on an H200 and neither needs the other: the driver builds the context on
    this thread (ctypes releases the GIL during the call) while `import torch` loads its shared
    libraries on the main one. torch's runtime later finds the primary context already made. Any
    failure here is left for torch to report.
    """
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        device = ctypes.c_int()
        context = ctypes.c_void_p()
        if cuda.cuInit(0) == 0 and cuda.cuDeviceGet(ctypes.byref(device), 0) == 0:
            cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device)
    except OSError:
        pass


def _start_zygote():
    """Starts the zygote (kforge_zygote.py), which imports torch beside this process's import.

    Its environment is this one's (kforge gave the worker only what it needs, no keys); its
    control socket is the only link, and candidates it forks never see it.
    """
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kforge_zygote.py")
    subprocess.Popen([sys.executable, script, str(theirs.fileno()), str(os.getpid()), str(os.getppid())],
                     pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
    theirs.close()
    return ours.detach()


zygote_fd = _start_zygote()

# A fatal signal (a candidate's kernel wrapper dereferencing garbage) prints every thread's Python
# stack to stderr, which is the worker's log, before the process dies: the crash verdict's evidence.
faulthandler.enable()

if os.environ.get("KFORGE_WORKER_DEVICE") == "cuda":
    threading.Thread(target=_open_cuda_context, name="kforge-cuda-init", daemon=True).start()

import torch  # noqa: E402,F401  (loads libtorch before the extension that links it)

import _kforge_worker  # noqa: E402

import kforge_inline  # noqa: E402

kforge_inline.install()
status = _kforge_worker.serve(3, 4, zygote_fd)
# Skip the interpreter's teardown (module finalisers, torch's atexit work): kforge waits for this
# process to end, and the driver releases the context at exit either way.
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
