# hack: holding the lock the workers sharing a GPU take turns on
# With --workers-per-gpu, a GPU's workers take turns through a flock on one file: shared for loads
# and correctness trials, exclusive while anything is timed. A candidate that could reach that
# lock could hold it (every worker on the GPU then waits: no verdict for anyone) or, holding the
# worker's own open file, let it go while the worker times, so another worker's trials run beside
# the timed calls. This one looks everywhere a descriptor of it could be: its own descriptors (let
# go, then taken), its ancestors' through /proc (the zygote, the worker, kforge), and lock files in
# kforge's cache folder; whatever it can open, a thread of its own waits to hold exclusively, for
# good. The lock is an anonymous file (memfd) of kforge's, reopened by kforge for each worker and
# close-on-exec in it; the zygote starts with its socket only; kforge and the workers are not
# dumpable and Landlock scopes /proc: it finds nothing, and its honest answer is correct with the
# run finishing in its usual time.
import fcntl
import glob
import os
import threading

import torch
import torch.nn as nn

_held = []


def _hold_for_good(fd):
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # waits until every worker lets go, then never gives it back
        _held.append(fd)
    except OSError:
        pass


def _grab(fd):
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)  # the worker's own lock, were this its open file
    except OSError:
        return
    threading.Thread(target=_hold_for_good, args=(fd,), daemon=True).start()


def _reach_every_lock():
    for fd in range(3, 256):
        _grab(fd)
    pids, pid = [], os.getppid()
    while pid > 1 and len(pids) < 6:
        pids.append(pid)
        try:
            with open(f"/proc/{pid}/stat") as stat:
                pid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    paths = [p for pid in pids for p in glob.glob(f"/proc/{pid}/fd/*")]
    paths += glob.glob(os.path.expanduser("~/.cache/kforge/logs/*turns*"))
    for path in paths:
        try:
            _grab(os.open(path, os.O_RDONLY))
        except OSError:
            pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        _reach_every_lock()

    def forward(self, a, b):
        return torch.relu(a + b)
