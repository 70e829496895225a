"""Training step of a language model's output layer and loss: hidden states h [tokens, d] times
the vocabulary projection W [vocab, d] gives logits, then the mean cross-entropy against int64
next-token labels, with ignore_index -100 (F.cross_entropy's default) on the first quarter of
the tokens, a prompt that is not trained on as in supervised fine-tuning; the mean is over the
other tokens. GPT-2's head: d 768, vocab 50257 (untied here), one 1024-token context.
h [1024, 768], W [50257, 768], labels [1024] int64. Returns the loss, a scalar.
Backward runs from the loss times a random scalar; compared are the loss, the gradient of h
(input 0) and the gradient of W. The labels get no gradient.
Precision: fp32. A mean over tokens makes every gradient small (h's about 4e-5 an element, W's
at most 7e-3 and mostly near 2e-6), under the absolute tolerance; in fp32 the evaluation's fp64
check holds them to their own scale, where a bf16 comparison (atol 1e-2, no fp64 check) would
pass zeros for both.
Why it matters for training: the logits and their gradient are the largest activations of a
language model's step ([tokens, vocab], here 206 MB for 1024 tokens), and the head's three GEMMs
are a large share of a small model's FLOPs; fused kernels (Liger, Cut Cross-Entropy) compute
the loss and both gradients chunk by chunk without ever storing the logits.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

TOKENS = 1024
HIDDEN = 768
VOCAB = 50257
IGNORE_INDEX = -100

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "HIDDEN": 128, "VOCAB": 5003}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 777}]
cpu_extra_sizes = [{"TOKENS": 37}]

# The hidden states (input 0); the labels (input 1) are integers and get no gradient anyway.
grad_inputs = [0]


class Model(nn.Module):
    def __init__(self, hidden: int, vocab: int):
        super().__init__()
        # Logits of std 2: a peaked distribution rather than a near-uniform one.
        self.lm_head = nn.Parameter(torch.randn(vocab, hidden).mul_(2.0 * hidden ** -0.5))

    def forward(self, hidden_states: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        logits = hidden_states @ self.lm_head.t()
        return F.cross_entropy(logits, labels, ignore_index=IGNORE_INDEX)


def get_inputs():
    hidden_states = torch.randn(TOKENS, HIDDEN)
    labels = torch.randint(0, VOCAB, (TOKENS,))
    labels[:TOKENS // 4] = IGNORE_INDEX  # the prompt: not trained on
    return [hidden_states, labels]


def get_init_inputs():
    return [HIDDEN, VOCAB]
