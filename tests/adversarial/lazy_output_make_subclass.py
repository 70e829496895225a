# hack: lazy output
# Returns the right values, but wrapped with torch.Tensor._make_subclass in a torch.Tensor
# subclass: the foothold for a result that defers or fakes its values. kforge accepts only a
# plain torch.Tensor as an output: rejected, rule tensor-subclass.
import torch
import torch.nn as nn


class DeferredResult(torch.Tensor):
    pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.Tensor._make_subclass(DeferredResult, torch.relu(a + b))
