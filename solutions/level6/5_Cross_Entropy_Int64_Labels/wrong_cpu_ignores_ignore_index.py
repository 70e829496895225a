# WRONG ON PURPOSE: the rows labelled -100 are left out of the sum but not out of the count: the
# mean divides by all rows instead of the counted ones (about 3/4 of them), so the loss and every
# element of the logits' gradient come out about 0.75 times too small.
# Expected verdict: incorrect.
"""Deliberately wrong cross-entropy: the mean over all rows instead of the non-ignored ones."""
import torch
import torch.nn as nn


class _CrossEntropyAllRowsFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, labels, ignore_index):
        counted = labels != ignore_index
        safe = torch.where(counted, labels, torch.zeros_like(labels))
        lse = torch.logsumexp(logits, dim=-1)
        picked = logits.gather(1, safe.unsqueeze(1)).squeeze(1)
        row_loss = torch.where(counted, lse - picked, torch.zeros_like(lse))
        rows = logits.shape[0]
        ctx.save_for_backward(logits, safe, counted, lse)
        return row_loss.sum() / rows  # the bug: should divide by counted.sum()

    @staticmethod
    def backward(ctx, grad):
        logits, safe, counted, lse = ctx.saved_tensors
        rows = logits.shape[0]
        scale = grad / rows  # the same bug in the gradient
        grad_logits = torch.exp(logits - lse.unsqueeze(1))
        grad_logits.scatter_add_(1, safe.unsqueeze(1), -torch.ones_like(lse).unsqueeze(1))
        grad_logits = grad_logits * scale * counted.unsqueeze(1).to(logits.dtype)
        return grad_logits, None, None


class ModelNew(nn.Module):
    def __init__(self, ignore_index: int):
        super().__init__()
        self.ignore_index = ignore_index

    def forward(self, logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return _CrossEntropyAllRowsFn.apply(logits, labels, self.ignore_index)
