# hack: moving the call's work out of its timed window, into kforge's copy of its outputs
# forward returns an uncomputed tensor at once; a TorchDispatchMode left on the dispatch stack waits
# for kforge's own copy of that tensor into the exchange arena (after the candidate process's clock
# stopped, before its answer) and computes relu(a + b) straight into the arena there. Before session
# 35 kforge made that copy with at::Tensor::copy_, through the dispatcher, so the mode ran: correct
# at 7-16x on the CPU for a true speedup of about 1 (the work hid in the bound's slack). kforge now
# copies without the dispatcher (src/worker/copies_without_dispatch.hpp): the mode never runs, the
# arena gets the uncomputed tensor, and the first trial is incorrect.
import torch
import torch.nn as nn
from torch.utils._python_dispatch import TorchDispatchMode

# A Python mode imports torch._dynamo, which wraps torch.manual_seed: put the original back, so
# the integrity watch sees an untouched torch.
_manual_seed = torch.manual_seed
import torch._dynamo  # noqa: E402,F401
torch.manual_seed = _manual_seed

_pending = {}


class _WorkInTheCopy(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func is torch.ops.aten.copy_.default and _pending.get("out") is args[1]:
            a, b = _pending.pop("inputs")
            torch.add(a, b, out=args[0])
            args[0].relu_()
            _pending.pop("out")
            return args[0]
        return func(*args, **(kwargs or {}))


_mode = _WorkInTheCopy()


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.pushed = False

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if not self.pushed:
            torch._C._push_on_torch_dispatch_stack(_mode)  # and never popped
            self.pushed = True
        with torch._C._DisableTorchDispatch():
            out = torch.empty_like(a)
        _pending["out"], _pending["inputs"] = out, (a, b)
        return out
