"""Layer normalization over the last dimension with learned elementwise affine weight and bias."""
import torch
import torch.nn as nn

BATCH = 65536
HIDDEN = 8192

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4096, "HIDDEN": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 30011}]
cpu_extra_sizes = [{"BATCH": 1001}]


class Model(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)
        # Perturb the affine parameters so they are not the trivial ones/zeros.
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(hidden) * 0.1)
            self.norm.bias.add_(torch.randn(hidden) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    x = torch.randn(BATCH, HIDDEN) * 2.0 + 0.5
    return [x]


def get_init_inputs():
    return [HIDDEN]
