"""Grouped GEMM of a mixture-of-experts layer: token rows already sorted by expert, group_sizes
(int64 [32], summing to the number of rows, zeros allowed) says how many consecutive rows go to
each expert, and rows of group e are multiplied by expert e's weight: out[rows of e] =
x[rows of e] @ W[e]^T. DeepSeek-V3 routed-expert gate/up shapes on one expert-parallel rank: 32
local experts, 16384 routed rows, 7168 -> 4096 (2 x 2048). Group sizes are a random split of
the rows, so the load per expert is uneven, as real routing makes it. Output [rows, 4096].
Precision: bf16 (weights, activations, output; fp32 accumulation).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: MoE expert GEMMs run on bf16 (or fp8) weights; the uneven groups are what a grouped
# kernel must schedule well (one launch, tiles spread over experts, no per-expert sync).
precision = "bf16"

ROWS = 16384
EXPERTS = 32
IN_FEATURES = 7168
OUT_FEATURES = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 256, "IN_FEATURES": 512, "OUT_FEATURES": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 6007}]
cpu_extra_sizes = [{"ROWS": 97}]


class Model(nn.Module):
    def __init__(self, experts: int, in_features: int, out_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(experts, out_features, in_features).mul_(in_features ** -0.5))

    def forward(self, x: torch.Tensor, group_sizes: torch.Tensor) -> torch.Tensor:
        # The groups' ends stay on the device, where torch's grouped GEMM reads them: one launch,
        # and the host never waits for the GPU. (A loop over experts needs the sizes on the host,
        # whose .tolist() made every call wait: lint rule `host-bound`, docs/benchmarks.md,
        # session 25.)
        ends = torch.cumsum(group_sizes, dim=0)
        if x.dtype == torch.float64:  # kforge's fp64 check only (untimed): grouped_mm has no fp64
            starts = ends - group_sizes
            return torch.cat([x[s:e] @ w.t() for s, e, w in zip(starts.tolist(), ends.tolist(), self.weight)])
        return F.grouped_mm(x, self.weight.transpose(-2, -1), offs=ends.to(torch.int32))


def get_inputs():
    x = torch.randn(ROWS, IN_FEATURES)
    cuts = torch.randint(0, ROWS + 1, (EXPERTS - 1,)).sort().values
    bounds = torch.cat([cuts.new_zeros(1), cuts, cuts.new_full((1,), ROWS)])
    group_sizes = bounds.diff()
    return [x, group_sizes]


def get_init_inputs():
    return [EXPERTS, IN_FEATURES, OUT_FEATURES]
