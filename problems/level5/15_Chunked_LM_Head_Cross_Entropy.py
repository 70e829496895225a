"""Per-token cross-entropy of a language-model head over a 128256-token vocabulary (Llama-3),
computed in chunks of tokens so the full [tokens, vocab] logits never exist at once: for each
chunk, logits = h @ W^T, loss = logsumexp(logits) - logits[target]. 4096 tokens of width 4096
(scoring a sequence's log-likelihood, as RL and evaluation pipelines do). Targets are int64 in
[0, VOCAB). Output: fp32 loss per token [tokens].
Precision: bf16. The head GEMM is bf16 (fp32 accumulation, logits rounded to bf16 as an
unfused head writes them); logsumexp and the gather in fp32. A fused kernel that keeps the
logits in fp32 stays well inside the tolerance (the losses are about 14).
"""
import torch
import torch.nn as nn

# bf16: the LM head runs in bf16; a fused kernel never writes the logits (263 MB in bf16 per
# 1024-token chunk, twice that once upcast) and keeps a running logsumexp instead.
precision = "bf16"

TOKENS = 4096
HIDDEN = 4096
VOCAB = 128256
CHUNK = 1024

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 64, "HIDDEN": 512, "VOCAB": 8000, "CHUNK": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 1531}]
cpu_extra_sizes = [{"TOKENS": 37}]


class Model(nn.Module):
    def __init__(self, hidden: int, vocab: int, chunk: int):
        super().__init__()
        self.chunk = chunk
        # Logits of std 2: a peaked distribution rather than a near-uniform one.
        self.lm_head = nn.Parameter(torch.randn(vocab, hidden).mul_(2.0 * hidden ** -0.5))

    def forward(self, hidden_states: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        losses = []
        for start in range(0, hidden_states.shape[0], self.chunk):
            h = hidden_states[start:start + self.chunk]
            logits = (h @ self.lm_head.t()).float()
            target_logit = logits.gather(1, targets[start:start + self.chunk].unsqueeze(1)).squeeze(1)
            losses.append(torch.logsumexp(logits, dim=-1) - target_logit)
        return torch.cat(losses)


def get_inputs():
    hidden_states = torch.randn(TOKENS, HIDDEN)
    targets = torch.randint(0, VOCAB, (TOKENS,))
    return [hidden_states, targets]


def get_init_inputs():
    return [HIDDEN, VOCAB, CHUNK]
