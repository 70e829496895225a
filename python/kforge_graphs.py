"""CUDA graph timing (`kforge eval --cuda-graph`): a model's forward captured once, replayed per
timed call, so the time is the GPU's work without Python's and the launches' overhead.

The graph reads its inputs from static buffers and writes its outputs to static tensors. kforge
copies each timed call's fresh inputs into the buffers before the timed window (`load`), times
only `replay`, and takes a copy of the outputs after it (`snapshot`), so every timed call still
gets inputs of its own and every output is rechecked.
"""
import torch


class GraphedForward:
    def __init__(self, model, example_args):
        self._static = [a.clone() if isinstance(a, torch.Tensor) else a for a in example_args]
        # Capture needs the lazy work of a first call (cuBLAS handles, autotuning, allocations)
        # done already, on a side stream, as PyTorch's CUDA graph notes require.
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(2):
                model(*self._static)
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        self._graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self._graph):
            self._out = model(*self._static)
        torch.cuda.synchronize()

    def load(self, *args):
        for buffer, value in zip(self._static, args):
            if isinstance(buffer, torch.Tensor):
                buffer.copy_(value)

    def replay(self):
        self._graph.replay()
        return self._out

    def snapshot(self):
        if isinstance(self._out, torch.Tensor):
            return self._out.clone()
        return type(self._out)(t.clone() if isinstance(t, torch.Tensor) else t for t in self._out)
