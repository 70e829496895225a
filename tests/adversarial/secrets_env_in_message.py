# hack: smuggling secrets out through the verdict's message
# Collects every environment variable whose name looks like a credential (an API key kforge's
# providers read) and raises them in an exception from forward, so they land in the stored and
# printed message. The candidate's environment holds none: kforge's workers get an allowlisted
# environment, credentials never. runtime_error, and the message names no secret (the isolation
# test sets KFORGE_TEST_API_KEY and looks for its value).
import os

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        found = {k: v for k, v in os.environ.items() if any(s in k for s in ("KEY", "TOKEN", "SECRET"))}
        try:
            with open(f"/proc/{os.getppid()}/environ", "rb") as f:
                found["zygote"] = f.read().decode(errors="replace")
        except OSError as e:
            found["zygote"] = str(e)
        raise RuntimeError(f"leaked: {found}")
