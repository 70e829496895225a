"""`kforge problems info`: what a problem computes, derived from its file on PyTorch's meta device.

Run by kforge with the worker's Python: kforge_metadata.py PATH...
One JSON object per problem on stdout: {"problem": PATH, "torch": VERSION, "precision": P,
"flops", "tf32_flops", "input_bytes", "param_count", "param_bytes", "output_bytes", "outputs": [{"shape", "dtype"}],
"error": null or why, "device": "meta" or "cuda"}. Sizes are the file's own (the GPU's), in its
declared precision, cast as kforge casts (fp32 and fp64 tensors only). No memory is allocated and
nothing is computed: the meta device carries shapes and dtypes only. A problem whose shapes depend
on its data cannot run there; on a machine with a GPU it is run there for real instead. FLOPs are torch.utils.flop_counter's (kforge_flops.py: matmuls,
convolutions, attention; elementwise work counts 0); `tf32_flops` is the part cuDNN runs,
convolutions and recurrent layers (nn.RNN, nn.LSTM, nn.GRU): PyTorch's default lets cuDNN use TF32
tensor cores for them in fp32 (torch.backends.cudnn.allow_tf32), and not matmuls.
A training problem (`mode = "train"`) is described as its step (kforge_train.py): FLOPs of forward
and backward, its grad_outputs among the inputs, its gradients among the outputs.
"""
import json
import sys

import torch

from kforge_flops import flop_counter
from kforge_problem import DTYPES, cast, cast_model, error_text, load, tensors_of
from kforge_train import is_training_problem, step_for, with_grad_outputs


CONVOLUTIONS = {"convolution", "_convolution", "convolution_backward", "cudnn_convolution", "cudnn_convolution_transpose",
                "convolution_overrideable", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                "conv_transpose3d"}


def conv_flops(counter):
    """The FLOPs of convolution operators, from the counter's per-operator totals."""
    total = 0
    for op, flops in counter.get_flop_counts().get("Global", {}).items():
        name = str(op).split(".")[1] if str(op).startswith("aten.") else str(op)
        if name in CONVOLUTIONS:
            total += flops
    return int(total)


class RecurrentFlops:
    """The FLOPs `counter` counts inside recurrent layers (nn.RNN, nn.LSTM, nn.GRU; on the meta
    device their cells decompose into the matmuls it counts), by hooks around their forwards. A
    training step's backward through them is outside those hooks, so not in this share."""

    def __init__(self, model, counter):
        self.flops = 0
        self._counter, self._start, self._handles = counter, 0, []
        for module in model.modules():
            if isinstance(module, torch.nn.RNNBase):
                self._handles += [module.register_forward_pre_hook(self._enter),
                                  module.register_forward_hook(self._leave)]

    def _enter(self, module, args):
        self._start = self._counter.get_total_flops()

    def _leave(self, module, args, output):
        self.flops += self._counter.get_total_flops() - self._start

    def remove(self):
        for handle in self._handles:
            handle.remove()


def nbytes(ts):
    return sum(t.numel() * t.element_size() for t in ts)


def describe(path, device="meta"):
    out = {"problem": path, "torch": torch.__version__, "precision": "fp32", "error": None, "device": device}
    try:
        m = load(path)
        precision = getattr(m, "precision", "fp32")
        dtype = DTYPES.get(precision, torch.float32)
        out["precision"] = precision if precision in DTYPES else "fp32"
        with torch.device(device):
            torch.manual_seed(42)
            model = cast_model(m.Model(*[cast(a, dtype) for a in m.get_init_inputs()]), dtype)
            inputs = [cast(a, dtype) for a in m.get_inputs()]
            if is_training_problem(m):
                model, inputs = step_for(m, model, inputs), with_grad_outputs(model, inputs, 1)
            counter = flop_counter()
            recurrent = RecurrentFlops(model, counter)
            with torch.no_grad(), counter:
                result = model(*inputs)
            recurrent.remove()
        params = list(model.parameters())  # a training step's are its model's: it holds the model
        outputs = tensors_of(result)
        out.update({
            "flops": int(counter.get_total_flops()),
            "tf32_flops": conv_flops(counter) + recurrent.flops,
            "input_bytes": nbytes(tensors_of(inputs)),
            "param_count": sum(p.numel() for p in params),
            "param_bytes": nbytes(params) + nbytes(list(model.buffers())),
            "output_bytes": nbytes(outputs),
            "outputs": [{"shape": list(t.shape), "dtype": str(t.dtype).removeprefix("torch.")} for t in outputs],
        })
    except Exception as e:  # noqa: BLE001 (reported per problem; the others go on)
        out["error"] = error_text(e, limit=1000)
    return out


def main():
    for path in sys.argv[1:]:
        described = describe(path)
        # A problem whose shapes depend on its data (nonzero, repeat_interleave by counts) cannot
        # run on the meta device; on a GPU it is run for real, once.
        if described["error"] and torch.cuda.is_available():
            described = describe(path, "cuda")
            torch.cuda.empty_cache()
        print(json.dumps(described), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
