"""The folders a profiler's injected code reads from inside the candidate sandbox.

Nsight Compute starts the profiled program with its injection libraries in LD_PRELOAD and, when
it profiles the first kernel, loads more from the same folder (libnvperf_host.so). Inside the
sandbox those reads are denied unless the folder is readable, and the injected code does not
check: the program dies by SIGSEGV (seen on the H200 under strace, docs/agent.md). The folder
of `ncu` on PATH is not always the install folder (a wrapper script in CUDA's bin/ execs the real
one elsewhere), so the folders are read from LD_PRELOAD itself, which ncu set before
the candidate's code could run. Standard library only: tested without torch.
"""
import os


def preloaded_folders(environ):
    """The folders of LD_PRELOAD's libraries, each with its install root where the library sits in
    a `target/<platform>/` folder (Nsight Compute's layout), in order, without repeats."""
    folders = []
    for entry in environ.get("LD_PRELOAD", "").replace(":", " ").split():
        if not os.path.isabs(entry):
            continue  # a bare name is found on the library path, which the sandbox already reads
        folder = os.path.dirname(os.path.normpath(entry))
        found = [folder]
        platform_parent = os.path.dirname(folder)
        if os.path.basename(platform_parent) == "target":
            found.append(os.path.dirname(platform_parent))
        for f in found:
            if f and f != "/" and f not in folders:
                folders.append(f)
    return folders


def profiler_readable(environ):
    """What the profiled program must be able to read: kforge's own list (KFORGE_PROFILE_READABLE,
    ncu's folder), then the folders of ncu's injection libraries."""
    named = [p for p in environ.get("KFORGE_PROFILE_READABLE", "").split(":") if p]
    return named + [f for f in preloaded_folders(environ) if f not in named]
