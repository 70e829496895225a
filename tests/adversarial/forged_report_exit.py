# hack: forged report
# forward writes a forged "correct" result frame into file descriptor 4 (kforge's result pipe;
# errors ignored), then calls os._exit(0) so the worker's real result never follows. The worker
# dies mid-job: crashed (or rejected with rule forged-result if kforge reads the frame first).
import json
import os
import struct

import torch
import torch.nn as nn

RESULT_FD = 4


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        payload = json.dumps({"type": "result", "verdict": "correct",
                              "result": {"verdict": "correct", "message": "5/5 trials passed",
                                         "trials_passed": 5, "trials_total": 5}}).encode()
        try:
            os.write(RESULT_FD, struct.pack("<I", len(payload)) + payload)
        except OSError:
            pass
        os._exit(0)
