"""One deterministic top-p (nucleus) sampling step over a 128256-token vocabulary (Llama-3) for
128 decode requests. Per row: probabilities p = softmax(logits / temperature) in fp32; the
nucleus is the smallest set of most likely tokens whose mass reaches top_p, extended to every
token whose probability equals the smallest one kept (so ties never depend on a sort order):
keep p_i >= p_min. The token is then drawn by inverse CDF over the kept probabilities in
vocabulary order, with the given uniform number u: the first token whose cumulative kept mass
exceeds u * (total kept mass). u is clamped to 1 - 2^-8 (the largest bf16 below 1) so that
rounding cannot push it to 1. Inputs: logits [128, 128256], temperature, top_p and uniform
[128] each; output int64 token ids [128].
Precision: bf16 inputs (logits as an LM head writes them); the softmax, sums and comparisons
in fp32. Token ids must match exactly; the logits are peaked (nuclei of a few to a few hundred
tokens, as language models give), which keeps rows whose outcome hinges on the last bits of a
float32 sum rare.
"""
import torch
import torch.nn as nn

# bf16: LM heads emit bf16 logits in serving; samplers (vLLM, FlashInfer) upcast to fp32.
precision = "bf16"

BATCH = 128
VOCAB = 128256
LOGIT_STD = 5.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 32, "VOCAB": 32000}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 77, "VOCAB": 100003}]
cpu_extra_sizes = [{"BATCH": 19, "VOCAB": 30011}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, temperature: torch.Tensor, top_p: torch.Tensor,
                uniform: torch.Tensor) -> torch.Tensor:
        probs = torch.softmax(logits.float() / temperature.float().unsqueeze(1), dim=-1)
        sorted_probs, order = probs.sort(dim=-1, descending=True)
        mass_before = sorted_probs.cumsum(dim=-1) - sorted_probs  # mass of the more likely tokens
        count = (mass_before < top_p.float().unsqueeze(1)).sum(dim=-1, keepdim=True)  # >= 1
        p_min = sorted_probs.gather(1, count - 1)
        # The mask p_i >= p_min, decided in sorted order and scattered back to vocabulary order
        # (as vLLM's sampler does). Comparing probs with p_min directly is the same mask, but
        # torch 2.11's inductor cannot compile that comparison into its split scan (a per-row
        # value read inside it fails code generation), and the compiled baseline needs it.
        keep = torch.empty_like(probs, dtype=torch.bool).scatter_(1, order, sorted_probs >= p_min)
        kept = torch.where(keep, probs, torch.zeros_like(probs))
        cdf = kept.cumsum(dim=-1)
        target = uniform.float().clamp(max=1.0 - 2.0 ** -8).unsqueeze(1) * cdf[:, -1:]
        return torch.searchsorted(cdf, target, right=True).squeeze(1)


def get_inputs():
    logits = torch.randn(BATCH, VOCAB) * LOGIT_STD
    temperature = 0.6 + 0.4 * torch.rand(BATCH)
    top_p = 0.8 + 0.15 * torch.rand(BATCH)
    uniform = torch.rand(BATCH)
    return [logits, temperature, top_p, uniform]


def get_init_inputs():
    return []
