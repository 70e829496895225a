# hack: forged report (kforge's own protocol, spoken by the candidate)
# Finds the sockets among its file descriptors (one is its channel to the reference process) and
# writes onto each the frame a timed call answers with, reporting a call of 0.1 us, before the
# real one. The reference process takes nothing from the candidate's side on trust: the frames
# that follow no longer describe outputs it can read: rejected, forged-result.
import json
import os
import struct

import torch
import torch.nn as nn


def _forge():
    frame = json.dumps({"type": "timed", "sample": {"event_ms": 1e-4, "host_ms": 1e-4, "queued_ms": 0}}).encode()
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("socket:"):
                os.write(int(fd), struct.pack("<I", len(frame)) + frame)
        except OSError:
            pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        _forge()
        return torch.relu(a + b)
