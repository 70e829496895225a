"""Training problems (a problem file that sets `mode = "train"`; docs/evaluation.md, "Training
problems"): one call is a training step's forward and backward, so kforge's trials, timing,
recheck, census and fp64 check see both passes through the same machinery as a forward.

Both processes of an evaluation wrap their model in a `TrainStep`: the reference process its
`Model`, the candidate's process its `ModelNew`. A step's arguments are the problem's inputs
followed by one `grad_output` per floating output of the forward; the reference process draws
those from the trial's secret seed (`grad_outputs`) and sends them with the inputs, so they
cross the boundary as inputs do and are checked for changes as inputs are. The step returns the
forward's outputs, then the gradients of the compared inputs, then the gradients of the trainable
parameters, in that order; the reference process compares the whole tuple.

The candidate's process runs this file too, so a candidate can rewrite its step there: nothing
it returns is trusted beyond the comparison, which happens outside it.
"""
import torch
import torch.nn as nn
from torch.func import functional_call


def is_training_problem(problem):
    return getattr(problem, "mode", None) == "train"


def gradient_inputs(problem, args):
    """The indices of the input tensors whose gradients are compared: the problem's `grad_inputs`
    where it declares them (targets, masks and tables are no training step's unknowns), else
    every floating input tensor."""
    floating = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and a.is_floating_point()]
    declared = getattr(problem, "grad_inputs", None)
    if declared is None:
        return floating
    chosen = [int(i) for i in declared]
    for i in chosen:
        if i not in floating:
            raise ValueError(f"grad_inputs names input {i}, which is not a floating-point tensor of get_inputs()")
    return chosen


def _outputs(result):
    """A forward's result as a list: its items, or the one tensor."""
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _floating(outputs):
    return [o for o in outputs if isinstance(o, torch.Tensor) and o.is_floating_point()]


def floating_output_specs(result):
    """(shape, dtype) of each floating output of a forward's result: the grad_outputs it takes."""
    return [(tuple(o.shape), o.dtype) for o in _floating(_outputs(result))]


def _differentiated(outputs, upstream):
    """(output, grad_output) of each floating output that requires grad, in order: what a step's
    backward starts from."""
    pairs = [(o, g) for o, g in zip(_floating(outputs), upstream) if o.requires_grad]
    if not pairs:
        raise RuntimeError("no floating output of the forward requires grad: a training step's forward must be "
                           "differentiable (autograd ops, or a torch.autograd.Function with its backward)")
    return [o for o, _ in pairs], [g for _, g in pairs]


def _detached(outputs):
    return [o.detach() if isinstance(o, torch.Tensor) else o for o in outputs]


def grad_outputs(specs, seed, device):
    """Standard normal grad_outputs of the given shapes and dtypes from a generator of their own
    (the global generators' state is the forward's, seeded alike on both sides for dropout). On
    PyTorch's meta device (the problem tools' shapes-only runs), empty tensors."""
    if torch.device(device).type == "meta":
        return [torch.empty(shape, dtype=dtype, device=device) for shape, dtype in specs]
    generator = torch.Generator(device=device)
    generator.manual_seed(seed)
    return [torch.randn(shape, generator=generator, device=device, dtype=torch.float32).to(dtype)
            for shape, dtype in specs]


def step_for(problem, model, inputs):
    """A training problem's step around `model`, for the problem tools (kforge_lint, kforge_baseline,
    kforge_metadata); `inputs` (without grad_outputs) show which inputs are floating and how many
    floating outputs the forward returns."""
    return TrainStep(model, gradient_inputs(problem, inputs), len(_specs_of_forward(model, inputs)))


def with_grad_outputs(model, inputs, seed):
    """`inputs` followed by the grad_outputs `model`'s forward on them takes, drawn from `seed` (a
    forward without gradients finds their shapes)."""
    device = next((a.device for a in inputs if isinstance(a, torch.Tensor)), torch.device("cpu"))
    return list(inputs) + grad_outputs(_specs_of_forward(model, inputs), seed, device)


def _specs_of_forward(model, inputs):
    with torch.no_grad():
        return floating_output_specs(model(*inputs))


def trainable_parameters(model):
    return [(name, p) for name, p in model.named_parameters() if p.requires_grad]


class TrainStep(nn.Module):
    """`step(*inputs, *grad_outputs)`: the model's forward with gradients on, backward from its
    floating outputs with `grad_outputs`, and (outputs..., input gradients..., parameter
    gradients...) returned. Parameter gradients are set to None first, as `zero_grad()` does, so a
    call's gradients are its own and a stale one cannot pass for them."""

    def __init__(self, model, grad_inputs, grad_output_count):
        super().__init__()
        self.model = model
        self.grad_inputs = tuple(grad_inputs)
        self.grad_output_count = int(grad_output_count)

    def split(self, args):
        cut = len(args) - self.grad_output_count
        return list(args[:cut]), list(args[cut:])

    def forward(self, *args):
        inputs, upstream = self.split(args)
        params = trainable_parameters(self.model)
        for _, p in params:
            p.grad = None
        leaves = []
        for i in self.grad_inputs:
            leaf = inputs[i].detach().requires_grad_()
            inputs[i] = leaf
            leaves.append(leaf)
        with torch.enable_grad():
            outputs = _outputs(self.model(*inputs))
        # Autograd's own engine, as training runs it: the backward on its device thread. (Run on
        # the calling thread instead, launch-bound steps took 25-30% longer on the H200 and their
        # identity speedups were no nearer 1: docs/benchmarks.md, session 21.)
        torch.autograd.backward(*_differentiated(outputs, upstream))
        grads = [leaf.grad if leaf.grad is not None else torch.zeros_like(leaf) for leaf in leaves]
        grads += [p.grad if p.grad is not None else torch.zeros_like(p) for _, p in params]
        return tuple(_detached(outputs) + grads)

    def labels(self, output_count):
        """What each tensor of the step's result is, for messages."""
        names = ["output" if output_count == 1 else f"output {i}" for i in range(output_count)]
        names += [f"the gradient of input {i}" for i in self.grad_inputs]
        names += [f"the gradient of parameter {name}" for name, _ in trainable_parameters(self.model)]
        return names

    def parameter_shapes(self):
        return [[name, list(p.shape)] for name, p in trainable_parameters(self.model)]

    def check_parameters(self, expected):
        """A candidate's trainable parameters against the reference's [name, shape] list: their
        gradients are compared one by one, in order, so count and shapes must agree (names may
        differ: a candidate may keep a weight outside the submodule the reference used)."""
        mine = self.parameter_shapes()
        if len(mine) != len(expected):
            raise ValueError(f"ModelNew has {len(mine)} trainable parameters, Model has {len(expected)} "
                             f"({', '.join(n for n, _ in expected) or 'none'}): a training candidate keeps the "
                             "reference's parameters, in the same order, since their gradients are compared")
        for (name, shape), (ref_name, ref_shape) in zip(mine, expected):
            if list(shape) != list(ref_shape):
                raise ValueError(f"ModelNew's parameter {name} has shape {list(shape)} where Model's {ref_name} has "
                                 f"{list(ref_shape)}: a training candidate keeps the reference's parameters, in the "
                                 "same order, since their gradients are compared")

    def fp64_step(self, *args):
        """The same step in fp64, on fp64 copies of the fp32 parameters, buffers and arguments (the
        model itself untouched), for the precision check: gradients through torch.autograd.grad."""
        def wide(t):
            return t.detach().double() if isinstance(t, torch.Tensor) and t.dtype == torch.float32 else t
        inputs, upstream = self.split(args)
        inputs = [wide(a) for a in inputs]
        upstream = [wide(g) for g in upstream]
        leaves = []
        for i in self.grad_inputs:
            inputs[i] = inputs[i].detach().requires_grad_()
            leaves.append(inputs[i])
        state, trainable = {}, []
        for name, p in self.model.named_parameters():
            copy = wide(p)
            if p.requires_grad:
                copy = copy.requires_grad_()
                trainable.append(copy)
            state[name] = copy
        for name, b in self.model.named_buffers():
            # Copies: a BatchNorm in train mode updates its running statistics in place.
            state[name] = wide(b) if b.dtype == torch.float32 else b.clone()
        with torch.enable_grad():
            outputs = _outputs(functional_call(self.model, state, tuple(inputs)))
        differentiated, upstream = _differentiated(outputs, upstream)
        wrt = leaves + trainable
        found = torch.autograd.grad(differentiated, wrt, upstream, allow_unused=True)
        grads = [g if g is not None else torch.zeros_like(x) for g, x in zip(found, wrt)]
        return tuple(_detached(outputs) + grads)
