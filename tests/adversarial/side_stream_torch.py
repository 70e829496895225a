# hack: side stream
# GPU only. Runs relu(a + b) on a torch.cuda.Stream of its own (which first waits for the current
# stream) and returns without making the current stream wait for it, so the end event recorded on
# the current stream misses the work, and a caller reading the output on its stream races it.
# kforge's record of the forward's stream operations shows the caller's stream never waits for the
# side stream (PyTorch's pool streams are non-blocking): rejected, rule unjoined-stream. (Timing
# every stream, kforge would give it no fake speedup.)
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._side = None

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if not a.is_cuda:
            raise RuntimeError("side_stream_torch needs CUDA inputs")
        if self._side is None:
            self._side = torch.cuda.Stream(device=a.device)
        current = torch.cuda.current_stream(a.device)
        self._side.wait_stream(current)  # sees the inputs; the join back is what is missing
        with torch.cuda.stream(self._side):
            out = torch.add(a, b)  # allocated from the side stream's pool
            out.relu_()
        # Deliberately no current.wait_stream(self._side) and no out.record_stream(current).
        return out
