"""The FLOP counter kforge uses: torch.utils.flop_counter with kforge's own formulas for
convolution_backward and grouped_mm. Used by `kforge problems info` (kforge_metadata.py: the SOL's work) and by
the worker's compute floor (worker/evaluate.cpp), so both count a training step the same way."""
import torch
from torch.utils.flop_counter import FlopCounterMode, conv_flop_count


def conv_backward_flops(grad_out_shape, x_shape, w_shape, _bias, _stride, _padding, _dilation, transposed,
                        _output_padding, _groups, output_mask, out_shape=None) -> int:
    """convolution_backward's FLOPs: its input gradient and its weight gradient each make the
    forward's multiplications once more. torch 2.11's own formula counts the weight gradient as a
    convolution over whole channel products, losing the group division (a depthwise convolution's
    weight gradient counted `groups` times over: level6/24's step at 6.9 TFLOP instead of 4.0 GFLOP)."""
    forward = conv_flop_count(x_shape, w_shape, grad_out_shape, transposed)
    return forward * (int(bool(output_mask[0])) + int(bool(output_mask[1])))


def grouped_mm_flops(a_shape, b_shape, _offs=None, _bias=None, _out_dtype=None, out_shape=None) -> int:
    """_grouped_mm's FLOPs (torch.nn.functional.grouped_mm), which torch 2.11 counts as none: every
    row of a meets one group's matrix (a 2-D a against a 3-D b: the groups split a's rows; 2-D
    against 2-D: they split the shared dimension; 3-D against 2-D: b's columns; 3-D against 3-D: a
    batch), so the work is that of one product over the whole extent of each dimension. The
    offsets' values are on the device and not read: rows past the last offset are counted too
    (kforge's level5/4 and level5/16 give every row a group)."""
    batch = a_shape[0] if len(a_shape) == 3 and len(b_shape) == 3 else 1
    return 2 * batch * a_shape[-2] * a_shape[-1] * b_shape[-1]


def flop_counter():
    """A FlopCounterMode (no display) with kforge's formulas for convolution backwards and grouped GEMMs."""
    return FlopCounterMode(display=False, custom_mapping={torch.ops.aten.convolution_backward: conv_backward_flops,
                                                          torch.ops.aten._grouped_mm: grouped_mm_flops})
