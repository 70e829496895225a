"""The FLOP counter kforge uses: torch.utils.flop_counter with kforge's own formula for
convolution_backward. Used by `kforge problems info` (kforge_metadata.py: the SOL's work) and by
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


def flop_counter():
    """A FlopCounterMode (no display) that counts convolution backwards with conv_backward_flops."""
    return FlopCounterMode(display=False, custom_mapping={torch.ops.aten.convolution_backward: conv_backward_flops})
