"""LeNet-style CNN: two conv+ReLU+maxpool stages, then two fully connected layers (10 logits)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096  # a small network on a large batch, so the GPU is busy rather than waiting on launches
IN_CHANNELS = 3
IMAGE_SIZE = 32
NUM_CLASSES = 10
cpu_sizes = {"BATCH": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 1531}]
cpu_extra_sizes = [{"BATCH": 37}]


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, 16, kernel_size=5)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=5)
        # 32x32 -> conv5 -> 28 -> pool -> 14 -> conv5 -> 10 -> pool -> 5
        self.fc1 = nn.Linear(32 * 5 * 5, 128)
        self.fc2 = nn.Linear(128, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), kernel_size=2, stride=2)
        x = F.max_pool2d(F.relu(self.conv2(x)), kernel_size=2, stride=2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES]
