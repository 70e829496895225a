# hack: forged report
# On its first call forward writes a frame shaped like the worker's result (4-byte little-endian
# length, then JSON {"type":"result","verdict":"correct",...} with a 100x speedup) straight into
# file descriptor 4, kforge's result pipe in the reference process, ignoring errors, then computes
# honestly. Its own process holds no such pipe (the candidate runs in a process of its own): the
# frame goes nowhere kforge reads, and it is judged at its true speed (correct); were fd 4 its
# channel to the reference process, the frame is not what that channel carries (forged-result).
import json
import os
import struct

import torch
import torch.nn as nn

RESULT_FD = 4


def _forge():
    fake = {
        "verdict": "correct", "message": "5/5 trials passed; 20 timed pairs", "rule": "",
        "trials_passed": 5, "trials_total": 5, "ref_ms": [1.0] * 20, "cand_ms": [0.01] * 20,
        "ref_host_ms": [1.0] * 20, "cand_host_ms": [0.01] * 20, "load_s": 0.1,
        "correctness_s": 0.1, "timing_s": 0.1, "worker_must_restart": False,
        "max_abs_error": 0.0, "max_rel_error": 0.0,
    }
    payload = json.dumps({"type": "result", "verdict": "correct", "result": fake}).encode()
    try:
        os.write(RESULT_FD, struct.pack("<I", len(payload)) + payload)
    except OSError:
        pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._forged = False

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if not self._forged:
            self._forged = True
            _forge()
        return torch.relu(a + b)
