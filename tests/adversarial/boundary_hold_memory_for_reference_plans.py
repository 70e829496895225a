# hack: boundary (steering the reference's library plans through the GPU's free memory)
# Torch's cuDNN convolutions choose a shape's plan on its first call, skipping plans whose
# workspace does not fit the memory left, and keep it for the process's life. This candidate
# computes the problem honestly (a transposed convolution, level1/83) but takes all but 3 GiB of
# the GPU's free memory when it is built and holds it: a reference that chose its plan after that
# would run a plan with a smaller workspace, slower, for the whole timing. The reference twin makes
# its first call (its plans) at load, before any candidate code runs: correct, and no faster than
# the reference (or runtime_error, where what is left is too little for the calls themselves).
import torch
import torch.nn as nn

LEAVE = 3 << 30  # [bytes] left free for this process's own calls and the reference's


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, dilation, bias):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                         output_padding=output_padding, dilation=dilation, bias=bias)
        self.hoard = None
        if torch.cuda.is_available():
            free, _ = torch.cuda.mem_get_info()
            if free > 2 * LEAVE:
                self.hoard = torch.empty(free - LEAVE, dtype=torch.uint8, device="cuda")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)
