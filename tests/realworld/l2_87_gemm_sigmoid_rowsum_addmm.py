import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    Linear -> sigmoid -> row sum.

    - torch.addmm fuses the bias add into the GEMM
    - sigmoid_ runs in place on the GEMM output (a fresh tensor we own)
    - sum with keepdim gives the (BATCH, 1) result directly
    """

    def __init__(self, in_features: int, out_features: int):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.addmm(self.linear.bias, x, self.linear.weight.t())
        y.sigmoid_()
        return y.sum(dim=1, keepdim=True)


BATCH = 4096
IN_FEATURES = 3072
OUT_FEATURES = 3072


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES) * 3.0]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
