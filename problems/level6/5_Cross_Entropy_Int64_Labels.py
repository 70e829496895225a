"""Training step of a language model's loss: mean cross-entropy of logits [tokens, vocab] =
[12288, 32000] (Llama-2's vocabulary; 6 sequences of 2048 tokens, 1.6 GB in fp32) against
int64 next-token labels, with prompt and padding positions (about a quarter) labelled -100 and
left out of the mean, as supervised fine-tuning does. Returns the scalar loss. The gradient of
the logits is compared: (softmax(logits) - onehot(label)) / n_counted on counted rows, zero
on ignored rows. The labels are integers and get no gradient. Eager PyTorch writes the
log-probabilities, then a dense gradient of them, then the logits' gradient; a fused kernel
reads the logits once forward and once backward and writes one gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

TOKENS = 12288
VOCAB = 32000
IGNORE_INDEX = -100

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "VOCAB": 2000}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 5001, "VOCAB": 32001}]
cpu_extra_sizes = [{"TOKENS": 37, "VOCAB": 2001}]


class Model(nn.Module):
    def __init__(self, ignore_index: int):
        super().__init__()
        self.ignore_index = ignore_index

    def forward(self, logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, labels, ignore_index=self.ignore_index)


def get_inputs():
    # Logits of spread 2, with the label's logit raised by 0 to 8 (a partly trained model: some
    # tokens confidently right, some not), so the per-token losses range from near 0 to ~12.
    logits = torch.randn(TOKENS, VOCAB).mul_(2.0)
    labels = torch.randint(0, VOCAB, (TOKENS,))
    rows = torch.arange(TOKENS)
    logits[rows, labels] += torch.rand(TOKENS).mul_(8.0)
    labels[torch.rand(TOKENS) < 0.25] = IGNORE_INDEX
    return [logits, labels]


def get_init_inputs():
    return [IGNORE_INDEX]
