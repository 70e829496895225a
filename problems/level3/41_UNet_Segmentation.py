"""U-Net for semantic segmentation: four encoder stages of (3x3 conv, BatchNorm, ReLU) x 2 with
2x2 max pooling between them, a bottleneck, four decoder stages that upsample with a stride-2
transposed conv, concatenate the encoder skip and apply (conv, BN, ReLU) x 2, then a 1x1 conv to
per-pixel class logits. BatchNorm runs in its default (training) mode, on batch statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

# Sized so the GPU sets the time: at a batch of 8 the H200 queued 5.17 ms of GPU work with a host share of 0.74, and its identity
# speedups were 1.0075 [1.0016, 1.0129] (docs/benchmarks.md, session 27).
BATCH = 16
IN_CHANNELS = 3
NUM_CLASSES = 6
BASE_CHANNELS = 32
HEIGHT = 256
WIDTH = 320  # both divisible by 16 (four poolings)

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 32, "WIDTH": 48}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "HEIGHT": 176, "WIDTH": 240}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 48, "WIDTH": 16}]


def double_conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int, base: int):
        super().__init__()
        widths = [base, 2 * base, 4 * base, 8 * base]
        self.encoders = nn.ModuleList()
        cin = in_channels
        for w in widths:
            self.encoders.append(double_conv(cin, w))
            cin = w
        self.bottleneck = double_conv(widths[-1], 2 * widths[-1])
        self.ups = nn.ModuleList()
        self.decoders = nn.ModuleList()
        cin = 2 * widths[-1]
        for w in reversed(widths):
            self.ups.append(nn.ConvTranspose2d(cin, w, kernel_size=2, stride=2))
            self.decoders.append(double_conv(2 * w, w))
            cin = w
        self.head = nn.Conv2d(widths[0], num_classes, kernel_size=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips = []
        for encoder in self.encoders:
            x = encoder(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottleneck(x)
        for up, decoder, skip in zip(self.ups, self.decoders, reversed(skips)):
            x = decoder(torch.cat([up(x), skip], dim=1))
        return self.head(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES, BASE_CHANNELS]
