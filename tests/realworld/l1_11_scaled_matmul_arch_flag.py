import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Scaled GEMM: C = (A @ B) * scale, with the scale applied in the epilogue of a tiled
# kernel instead of a second elementwise pass over C. 32x32 output tile per block,
# each thread computes a 4x1 strip (block of 32x8 threads).
scaled_matmul_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 32
#define ROWS_PER_THREAD 4

__global__ void scaled_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int N, int K, float scale) {
    __shared__ float As[TILE][TILE + 1];
    __shared__ float Bs[TILE][TILE + 1];

    const int tx = threadIdx.x;           // 0..31
    const int ty = threadIdx.y;           // 0..7
    const int col = blockIdx.x * TILE + tx;
    const int row0 = blockIdx.y * TILE + ty * ROWS_PER_THREAD;

    float acc[ROWS_PER_THREAD] = {0.f, 0.f, 0.f, 0.f};

    for (int t = 0; t < K; t += TILE) {
        // each thread loads 4 elements of each tile
        for (int r = 0; r < ROWS_PER_THREAD; ++r) {
            const int lr = ty * ROWS_PER_THREAD + r;
            const int a_row = blockIdx.y * TILE + lr;
            const int a_col = t + tx;
            As[lr][tx] = (a_row < M && a_col < K) ? A[(size_t)a_row * K + a_col] : 0.f;
            const int b_row = t + lr;
            Bs[lr][tx] = (b_row < K && col < N) ? B[(size_t)b_row * N + col] : 0.f;
        }
        __syncthreads();
        #pragma unroll 8
        for (int k = 0; k < TILE; ++k) {
            const float b = Bs[k][tx];
            for (int r = 0; r < ROWS_PER_THREAD; ++r) {
                acc[r] += As[ty * ROWS_PER_THREAD + r][k] * b;
            }
        }
        __syncthreads();
    }

    for (int r = 0; r < ROWS_PER_THREAD; ++r) {
        const int row = row0 + r;
        if (row < M && col < N) C[(size_t)row * N + col] = acc[r] * scale;
    }
}

torch::Tensor scaled_matmul(torch::Tensor A, torch::Tensor B, double scale) {
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int M = a.size(0), K = a.size(1), N = b.size(1);
    auto C = torch::empty({M, N}, a.options());
    dim3 block(TILE, TILE / ROWS_PER_THREAD);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    scaled_matmul_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), C.data_ptr<float>(),
                                          M, N, K, (float)scale);
    return C;
}
"""

scaled_matmul_cpp = "torch::Tensor scaled_matmul(torch::Tensor A, torch::Tensor B, double scale);"

scaled_matmul_ext = load_inline(
    name="scaled_matmul_sm90",
    cpp_sources=scaled_matmul_cpp,
    cuda_sources=scaled_matmul_source,
    functions=["scaled_matmul"],
    extra_cflags=["-O3"],
    extra_cuda_cflags=["-O3", "-arch=sm_90"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super(ModelNew, self).__init__()
        self.scale = scale

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return scaled_matmul_ext.scaled_matmul(A, B, self.scale)
