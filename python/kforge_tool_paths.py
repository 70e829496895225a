"""The folders a profiler's injected code reads from inside the candidate sandbox.

Nsight Compute starts the profiled program with its injection libraries in LD_PRELOAD and, when
it profiles the first kernel, loads more from the same folder (libnvperf_host.so). Inside the
sandbox those reads are denied unless the folder is readable, and the injected code does not
check: the program dies by SIGSEGV (seen on the H200 under strace, docs/agent.md). The folder
of `ncu` on PATH is not always the install folder (a wrapper script in CUDA's bin/ execs the real
one elsewhere), so the folders are read from what ncu injected before the candidate's code could
run: LD_PRELOAD, and the libraries mapped into the process. The second is the one that worked on
the H200: with LD_PRELOAD's folders alone the folder stayed denied (session 27's fix), with the
mapped libraries' it was read (docs/benchmarks.md, session 28); why LD_PRELOAD named nothing there
is inferred, not seen (the injected code may take it out of the environment once loaded, as it
re-injects the process's children itself). Standard library only: tested without torch.
"""
import os


def _install_root(folder):
    """Nsight Compute's install root where `folder` is its `target/<platform>/` folder, else None."""
    platform_parent = os.path.dirname(folder)
    return os.path.dirname(platform_parent) if os.path.basename(platform_parent) == "target" else None


def _with_install_root(folder):
    """A library's folder, and its install root where it has one (_install_root)."""
    root = _install_root(folder)
    return [folder, root] if root else [folder]


def _append_new(folders, found):
    for f in found:
        if f and f != "/" and f not in folders:
            folders.append(f)


def preloaded_folders(environ):
    """The folders of LD_PRELOAD's libraries, each with its install root where the library sits in
    a `target/<platform>/` folder (Nsight Compute's layout), in order, without repeats."""
    folders = []
    for entry in environ.get("LD_PRELOAD", "").replace(":", " ").split():
        if not os.path.isabs(entry):
            continue  # a bare name is found on the library path, which the sandbox already reads
        _append_new(folders, _with_install_root(os.path.dirname(os.path.normpath(entry))))
    return folders


def injected_folders(maps_text):
    """The folders of shared libraries mapped from a `target/<platform>/` folder (Nsight Compute's
    layout for what it injects), given /proc/<pid>/maps's text, each with its install root. Other
    libraries (the interpreter's, torch's) are left to the sandbox's own list."""
    folders = []
    for line in maps_text.splitlines():
        fields = line.split(None, 5)
        if len(fields) < 6 or not fields[5].startswith("/") or ".so" not in os.path.basename(fields[5]):
            continue
        folder = os.path.dirname(os.path.normpath(fields[5].strip()))
        root = _install_root(folder)
        if root:
            _append_new(folders, [folder, root])
    return folders


def profiler_readable(environ, maps_text=""):
    """What the profiled program must be able to read: kforge's own list (KFORGE_PROFILE_READABLE,
    ncu's folder), then the folders of ncu's injection libraries (LD_PRELOAD's, then those mapped
    into the process: `maps_text`, /proc/self/maps's text)."""
    folders = [p for p in environ.get("KFORGE_PROFILE_READABLE", "").split(":") if p]
    _append_new(folders, preloaded_folders(environ))
    _append_new(folders, injected_folders(maps_text))
    return folders


def own_maps():
    """This process's /proc/self/maps, or nothing where it cannot be read."""
    try:
        with open("/proc/self/maps") as f:
            return f.read()
    except OSError:
        return ""
