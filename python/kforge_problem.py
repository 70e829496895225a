"""Loading a problem file as kforge does, for the worker's problem tools (kforge_lint.py,
kforge_metadata.py): the module, its `cpu_sizes` on the CPU, and the precision cast kforge applies
(fp32 and fp64 tensors only: integers and narrower floats keep their types)."""
import importlib.util

import torch

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def load(path, cpu=False, name="kforge_problem_tool"):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if cpu:
        for key, value in getattr(module, "cpu_sizes", {}).items():
            setattr(module, key, value)
    return module


def error_text(e, limit=300):
    """An exception as one line for a stored record: its type and its message's first paragraph
    (torch appends advice such as "Set TORCHDYNAMO_VERBOSE=1 ..." after a blank line)."""
    first = str(e).strip().split("\n\n")[0]
    return f"{type(e).__name__}: {' '.join(first.split())[:limit]}"


def is_out_of_memory(e):
    """An allocation that failed: CUDA's OutOfMemoryError, or the CPU allocator's error."""
    return isinstance(e, (MemoryError, torch.OutOfMemoryError)) or any(
        words in str(e) for words in ("out of memory", "can't allocate memory"))


def tensors_of(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for item in x for t in tensors_of(item)]
    return []


def cast(x, dtype):
    if isinstance(x, torch.Tensor) and x.dtype in (torch.float32, torch.float64):
        return x.to(dtype)
    return x


def cast_model(model, dtype):
    """The model's fp32 and fp64 parameters and buffers, as the worker casts them (Module._apply,
    what Module.to uses): a buffer is replaced by its cast copy. Assigning `.data` instead leaves a
    buffer that is a view (a squeezed scale, say) with a base of the old dtype, which
    torch.compile's fake tensors reject ("torch.float32 != torch.bfloat16")."""
    return model._apply(lambda t: t.to(dtype) if t.dtype in (torch.float32, torch.float64) else t)
