"""
C = A @ B.T without materialising B.T.

Both A (M x K) and B (N x K) are read along K, so both tiles are loaded with
coalesced row reads; the B tile is then used "transposed" from shared memory.
Shared arrays are padded by one column to avoid bank conflicts on the transposed
access. Compiled for Hopper only (sm_90).
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_nt_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

constexpr int TILE = 32;

__global__ void matmul_nt_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[TILE][TILE + 1];
    __shared__ float Bs[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;     // row of C / A
    const int col = blockIdx.x * TILE + tx;     // col of C
    const int brow = blockIdx.x * TILE + ty;    // row of B that this thread loads
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (brow < N && k0 + tx < K) ? B[(size_t)brow * K + k0 + tx] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[tx][k];
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

torch::Tensor matmul_nt(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "CUDA tensors expected");
    TORCH_CHECK(A.size(1) == B.size(1), "K mismatch");
    A = A.contiguous();
    B = B.contiguous();
    const int M = A.size(0), K = A.size(1), N = B.size(0);
    auto C = torch::empty({M, N}, A.options());
    dim3 threads(TILE, TILE);
    dim3 blocks((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_nt_kernel<<<blocks, threads>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
    return C;
}
"""

matmul_nt_cpp = "torch::Tensor matmul_nt(torch::Tensor A, torch::Tensor B);"

matmul_nt_ext = load_inline(
    name="matmul_nt_hopper",
    cpp_sources=matmul_nt_cpp,
    cuda_sources=matmul_nt_source,
    functions=["matmul_nt"],
    extra_cuda_cflags=["-O3", "-gencode=arch=compute_90,code=sm_90"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_nt_ext.matmul_nt(A, B)
