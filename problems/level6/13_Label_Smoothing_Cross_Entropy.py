"""Training step of the label-smoothed cross-entropy of a machine-translation Transformer
(Vaswani et al.: smoothing 0.1 over a 37000-token shared BPE vocabulary): decoder logits
[tokens, vocab] = [8192, 37000] (1.2 GB in fp32) against int64 target tokens; the loss per
token is 0.9 * (-log p[label]) + 0.1 * mean over the vocabulary of (-log p), and the step
returns its mean over tokens (a scalar). Compared: the gradient of the logits,
(softmax(logits) - (0.9 * onehot(label) + 0.1 / vocab)) / tokens; the labels are integers and
get no gradient. Unlike plain cross-entropy the smoothing term reads every log-probability,
so eager PyTorch adds a full-row reduction forward and a dense add backward to the log_softmax
passes; a fused kernel needs only each row's max, sum of exponentials and sum of logits.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

TOKENS = 8192
VOCAB = 37000
SMOOTHING = 0.1

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "VOCAB": 2000}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 3001, "VOCAB": 36997}]
cpu_extra_sizes = [{"TOKENS": 37, "VOCAB": 1999}]


class Model(nn.Module):
    def __init__(self, smoothing: float):
        super().__init__()
        self.smoothing = smoothing

    def forward(self, logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, labels, label_smoothing=self.smoothing)


def get_inputs():
    # Logits of spread 2 with the label's logit raised by 0 to 10: a partly trained decoder.
    logits = torch.randn(TOKENS, VOCAB).mul_(2.0)
    labels = torch.randint(0, VOCAB, (TOKENS,))
    rows = torch.arange(TOKENS)
    logits[rows, labels] += torch.rand(TOKENS).mul_(10.0)
    return [logits, labels]


def get_init_inputs():
    return [SMOOTHING]
