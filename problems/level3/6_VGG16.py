"""VGG-16 (configuration D, no batch norm): thirteen 3x3 convolutions with ReLU in five stages
separated by 2x2 max-pools, an adaptive average pool to 7x7, then three fully connected layers
(no dropout) giving 1000 logits.

Convolutions and hidden linear layers use He (Kaiming) normal initialisation with zero biases, so
fifteen ReLU layers without normalisation keep their activations O(1).
"""
import torch
import torch.nn as nn

BATCH = 12
IN_CHANNELS = 3
IMAGE_SIZE = 224
FC_HIDDEN = 4096
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "IMAGE_SIZE": 32, "FC_HIDDEN": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "IMAGE_SIZE": 161}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 33}]

# Output channels of each 3x3 convolution; "M" is a 2x2 max-pool with stride 2.
STAGES = [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"]


class Model(nn.Module):
    def __init__(self, in_channels: int, fc_hidden: int, num_classes: int):
        super().__init__()
        layers = []
        prev = in_channels
        for item in STAGES:
            if item == "M":
                layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
            else:
                conv = nn.Conv2d(prev, item, kernel_size=3, padding=1)
                nn.init.kaiming_normal_(conv.weight, nonlinearity="relu")
                nn.init.zeros_(conv.bias)
                layers += [conv, nn.ReLU(inplace=True)]
                prev = item
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d((7, 7))
        self.fc1 = nn.Linear(prev * 7 * 7, fc_hidden)
        self.fc2 = nn.Linear(fc_hidden, fc_hidden)
        self.fc3 = nn.Linear(fc_hidden, num_classes)
        for fc in (self.fc1, self.fc2):
            nn.init.kaiming_normal_(fc.weight, nonlinearity="relu")
            nn.init.zeros_(fc.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.flatten(self.pool(self.features(x)), 1)
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, FC_HIDDEN, NUM_CLASSES]
