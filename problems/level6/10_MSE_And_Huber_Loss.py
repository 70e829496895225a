"""Training step of the losses of an image-restoration network (denoising, super-resolution):
the predicted images [32, 3, 1024, 1024] (403 MB in fp32) against the targets of the same
shape, scored by two losses that training logs separately and sums with weights: the mean
squared error (the PSNR objective) and the mean Huber loss with delta 1.0 (robust to outlier
pixels). Returns (mse, huber), two scalars; kforge's two random upstream scalars play the loss
weights. Compared: the gradient of the prediction only (grad_inputs = [0]); the target is data
and gets no gradient. Eager PyTorch runs each loss as its own elementwise pass plus a mean,
and their backward as two more passes and an add; a fused kernel reads prediction and target
once forward and once backward and writes one gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"
grad_inputs = [0]

BATCH = 32
CHANNELS = 3
HEIGHT = 1024
WIDTH = 1024
DELTA = 1.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "HEIGHT": 96, "WIDTH": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "HEIGHT": 1001, "WIDTH": 999}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 37, "WIDTH": 53}]


class Model(nn.Module):
    def __init__(self, delta: float):
        super().__init__()
        self.delta = delta

    def forward(self, prediction: torch.Tensor, target: torch.Tensor):
        mse = F.mse_loss(prediction, target)
        huber = F.huber_loss(prediction, target, delta=self.delta)
        return mse, huber


def get_inputs():
    # Normalised target images, and predictions off by a per-sample error level from 0.2 to
    # 2.2: both the quadratic (|error| < delta) and the linear branch of the Huber loss occur.
    target = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    level = torch.rand(BATCH, 1, 1, 1).mul_(2.0).add_(0.2)
    prediction = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH).mul_(level).add_(target)
    return [prediction, target]


def get_init_inputs():
    return [DELTA]
