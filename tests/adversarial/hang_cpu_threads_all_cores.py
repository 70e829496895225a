# hack: hang / CPU bomb
# forward keeps every core busy with CPU matrix products (torch's own thread pool, which runs
# outside the GIL) for up to 60 s before answering. On a machine whose workers share the cores,
# that slows every other worker's timing long before the wall deadline. Run with --cpu-share 0.5:
# kforge's watch sees more than that and a quarter busy over 3 s and kills it. runtime_error,
# "CPU cores busy". (Half a core, not one: on a 2-core machine running other tests beside it, its
# two threads got about one core, no more than a share of one, and ran to the job's time limit.)
import time

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        torch.set_num_threads(max(2, torch.get_num_threads()))
        x = torch.rand(1024, 1024)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            x = torch.tanh(x @ x)
        return torch.relu(a + b)
