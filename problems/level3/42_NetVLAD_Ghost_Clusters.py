"""NetVLAD pooling with ghost clusters over a set of local descriptors (B, N, D): soft assignment
of each descriptor to K + G clusters (linear map, BatchNorm over all descriptors, softmax), the G
ghost columns dropped, residuals to the K learned centroids summed with those weights, each
cluster's residual L2-normalised, then the flattened (B, K*D) vector L2-normalised."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 256
NUM_DESCRIPTORS = 1024  # e.g. a 32 x 32 grid of patch features
FEATURE_DIM = 768
NUM_CLUSTERS = 96
GHOST_CLUSTERS = 8

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "NUM_DESCRIPTORS": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 97, "NUM_DESCRIPTORS": 961}]
cpu_extra_sizes = [{"BATCH": 3, "NUM_DESCRIPTORS": 49}]


class Model(nn.Module):
    def __init__(self, feature_dim: int, num_clusters: int, ghost_clusters: int):
        super().__init__()
        self.num_clusters = num_clusters
        self.assign = nn.Linear(feature_dim, num_clusters + ghost_clusters, bias=False)
        self.assign_bn = nn.BatchNorm1d(num_clusters + ghost_clusters)
        self.centroids = nn.Parameter(torch.randn(num_clusters, feature_dim) * 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        logits = self.assign_bn(self.assign(x.reshape(b * n, d)))
        soft = torch.softmax(logits, dim=1)[:, : self.num_clusters].reshape(b, n, self.num_clusters)
        mass = soft.sum(dim=1)  # (B, K)
        vlad = soft.transpose(1, 2) @ x - mass.unsqueeze(-1) * self.centroids  # (B, K, D)
        vlad = F.normalize(vlad, p=2, dim=2)
        return F.normalize(vlad.reshape(b, -1), p=2, dim=1)


def get_inputs():
    x = torch.randn(BATCH, NUM_DESCRIPTORS, FEATURE_DIM)
    return [x]


def get_init_inputs():
    return [FEATURE_DIM, NUM_CLUSTERS, GHOST_CLUSTERS]
