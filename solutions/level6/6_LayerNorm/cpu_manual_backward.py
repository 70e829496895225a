"""LayerNorm training step with a hand-written backward (plain PyTorch, runs anywhere).

Forward normalises each row with its mean and biased variance (two passes: mean, then the
variance of x - mean, as layer_norm does), saves x_hat = (x - mean) * rstd and rstd, and returns
x_hat * weight + bias. Backward is the textbook LayerNorm gradient:

    gxh     = grad * weight
    grad_x  = rstd * (gxh - mean_row(gxh) - x_hat * mean_row(gxh * x_hat))
    grad_w  = sum_rows(grad * x_hat)
    grad_b  = sum_rows(grad)
"""
import torch
import torch.nn as nn


class _LayerNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, eps):
        mean = x.mean(-1, keepdim=True)
        xc = x - mean
        var = (xc * xc).mean(-1, keepdim=True)
        rstd = torch.rsqrt(var + eps)
        x_hat = xc * rstd
        ctx.save_for_backward(x_hat, weight, rstd)
        return x_hat * weight + bias

    @staticmethod
    def backward(ctx, grad):
        x_hat, weight, rstd = ctx.saved_tensors
        hidden = x_hat.shape[-1]
        gxh = grad * weight
        mean_g = gxh.mean(-1, keepdim=True)
        mean_gx = (gxh * x_hat).mean(-1, keepdim=True)
        grad_x = rstd * (gxh - mean_g - x_hat * mean_gx)
        grad_w = (grad * x_hat).reshape(-1, hidden).sum(0)
        grad_b = grad.reshape(-1, hidden).sum(0)
        return grad_x, grad_w, grad_b, None


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        # Built exactly as the reference builds them, so the seeded initialisation matches.
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(hidden))
        self.bias = nn.Parameter(0.2 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _LayerNormFn.apply(x, self.weight, self.bias, self.eps)
