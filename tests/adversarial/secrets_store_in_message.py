# hack: smuggling the store out through the verdict's message
# Looks for kforge's SQLite store (kforge.db, or the file --db names, found through the process
# tree's command lines and working directories) and for kforge.toml, and raises their first bytes
# in an exception. Reading other processes' working directories and command lines is denied or
# finds nothing it may open; the message it raises is bounded and one line. runtime_error, and the
# message holds no SQLite header (the isolation test checks).
import os

import torch
import torch.nn as nn


def _look():
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        for name in ("kforge.db", "k.db", "kforge.toml"):
            try:
                with open(os.path.join(cwd, name), "rb") as f:
                    found.append(f.read(64))
            except OSError:
                pass
    return found


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        raise RuntimeError(f"store: {_look()!r}")
