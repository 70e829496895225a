# legit: splits the rows over 4 threading.Threads that each write their block of a preallocated
# output, and joins every thread before returning (no thread outlives the call). On CUDA each
# thread launches on the caller's current stream.
import threading

import torch
import torch.nn as nn

THREADS = 4


def _add_relu_rows(a, b, out, start, stop):
    torch.add(a[start:stop], b[start:stop], out=out[start:stop])
    out[start:stop].relu_()


def _block(a, b, out, start, stop, stream, errors):
    try:
        if stream is not None:
            with torch.cuda.stream(stream):
                _add_relu_rows(a, b, out, start, stop)
        else:
            _add_relu_rows(a, b, out, start, stop)
    except BaseException as e:  # handed to the caller, which re-raises it
        errors.append(e)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(a)
        rows = a.shape[0]
        stream = torch.cuda.current_stream(a.device) if a.is_cuda else None
        step = (rows + THREADS - 1) // THREADS
        workers, errors = [], []
        for start in range(0, rows, max(step, 1)):
            t = threading.Thread(target=_block, args=(a, b, out, start, min(start + step, rows), stream, errors))
            t.start()
            workers.append(t)
        for t in workers:
            t.join()
        if errors:
            raise errors[0]
        return out
