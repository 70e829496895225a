"""fp32 matmul with a shared-memory tiled CUDA kernel (64x64 block tile, 4x4 outputs per thread)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor tiled_matmul(torch::Tensor a, torch::Tensor b);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// C (M x N) = A (M x K) @ B (K x N), all row-major fp32.
constexpr int BM = 64;   // block tile rows
constexpr int BN = 64;   // block tile cols
constexpr int BK = 16;   // k-slice per shared-memory stage
constexpr int TM = 4;    // outputs per thread (rows)
constexpr int TN = 4;    // outputs per thread (cols)
constexpr int kThreads = (BM / TM) * (BN / TN);  // 256
constexpr int PAD = 4;

static_assert(BM * BK % kThreads == 0, "A tile load must divide evenly");
static_assert(BK * BN % kThreads == 0, "B tile load must divide evenly");

__global__ void __launch_bounds__(kThreads)
tiled_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                    int M, int N, int K) {
    __shared__ float As[BK][BM + PAD];  // A tile stored transposed: As[k][m]
    __shared__ float Bs[BK][BN + PAD];  // Bs[k][n]

    const int tid = threadIdx.x;
    const int tcol = tid % (BN / TN);   // 0..15
    const int trow = tid / (BN / TN);   // 0..15
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // Load A[row0 : row0+BM, k0 : k0+BK] (zero outside the matrix).
        #pragma unroll
        for (int l = 0; l < (BM * BK) / kThreads; ++l) {
            const int e = tid + l * kThreads;
            const int r = e / BK;
            const int c = e % BK;
            const int gr = row0 + r;
            const int gc = k0 + c;
            As[c][r] = (gr < M && gc < K) ? A[(size_t)gr * K + gc] : 0.0f;
        }
        // Load B[k0 : k0+BK, col0 : col0+BN].
        #pragma unroll
        for (int l = 0; l < (BK * BN) / kThreads; ++l) {
            const int e = tid + l * kThreads;
            const int r = e / BN;
            const int c = e % BN;
            const int gr = k0 + r;
            const int gc = col0 + c;
            Bs[r][c] = (gr < K && gc < N) ? B[(size_t)gr * N + gc] : 0.0f;
        }
        __syncthreads();

        // Two-level summation: a fresh partial sum per BK-slice, then added to acc.
        // This keeps the fp32 rounding error at K=2048 several times smaller than one long
        // running sum (close to what a blocked BLAS gets).
        float part[TM][TN];
        #pragma unroll
        for (int i = 0; i < TM; ++i)
            #pragma unroll
            for (int j = 0; j < TN; ++j) part[i][j] = 0.0f;

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM];
            float b[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[kk][trow * TM + i];
            #pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tcol * TN + j];
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) part[i][j] = fmaf(a[i], b[j], part[i][j]);
        }
        #pragma unroll
        for (int i = 0; i < TM; ++i)
            #pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][j] += part[i][j];
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = row0 + trow * TM + i;
        if (r >= M) continue;
        #pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = col0 + tcol * TN + j;
            if (c < N) C[(size_t)r * N + c] = acc[i][j];
        }
    }
}

torch::Tensor tiled_matmul(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "tiled_matmul: inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32,
                "tiled_matmul: inputs must be float32");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "tiled_matmul: inputs must be 2-D");
    TORCH_CHECK(a.is_contiguous() && b.is_contiguous(), "tiled_matmul: inputs must be contiguous");
    TORCH_CHECK(a.size(1) == b.size(0), "tiled_matmul: inner dimensions differ");
    const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
    TORCH_CHECK(M < (1LL << 31) && N < (1LL << 31) && K < (1LL << 31), "tiled_matmul: matrix too large");
    auto c = torch::empty({M, N}, a.options());
    if (M == 0 || N == 0) return c;
    if (K == 0) return c.zero_();
    const dim3 grid((unsigned int)((N + BN - 1) / BN), (unsigned int)((M + BM - 1) / BM));
    TORCH_CHECK(grid.y <= 65535, "tiled_matmul: too many rows");
    tiled_matmul_kernel<<<grid, kThreads>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(),
                                            (int)M, (int)N, (int)K);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "tiled_matmul_kernel launch failed: ", cudaGetErrorString(err));
    return c;
}
"""

_ext = load_inline(
    name="kforge_sol_matmul_tiled",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["tiled_matmul"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return _ext.tiled_matmul(A.contiguous(), B.contiguous())
