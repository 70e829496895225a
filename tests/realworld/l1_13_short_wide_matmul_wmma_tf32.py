"""
Short-wide matmul on Hopper tensor cores.

Uses the WMMA API with TF32 fragments (m16n16k8): each 128-thread block computes a 64x64 tile of C,
each warp a 32x32 sub-tile as 2x2 accumulator fragments. Tiles are zero-padded in shared memory so
any M, N, K works; the epilogue goes through a per-warp staging buffer to mask the edges.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

wmma_gemm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define BM 64
#define BN 64
#define BK 16
#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 8
#define A_LD (BK + 4)
#define B_LD (BN + 4)
#define NUM_THREADS 128

__global__ void __launch_bounds__(NUM_THREADS)
wmma_tf32_gemm_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                      int M, int N, int K) {
    __shared__ __align__(32) float As[BM * A_LD];
    __shared__ __align__(32) float Bs[BK * B_LD];
    __shared__ __align__(32) float Cs[NUM_THREADS / 32][WMMA_M * WMMA_N];

    const int tid = threadIdx.x;
    const int warp_id = tid / 32;
    const int lane = tid % 32;
    const int warp_row = warp_id / 2;  // 0..1
    const int warp_col = warp_id % 2;  // 0..1
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc[2][2];
    #pragma unroll
    for (int i = 0; i < 2; ++i)
        #pragma unroll
        for (int j = 0; j < 2; ++j)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += BK) {
        // Load the A tile (BM x BK), zero-padding out-of-range elements
        for (int e = tid; e < BM * BK; e += NUM_THREADS) {
            const int r = e / BK, c = e % BK;
            const int gr = row0 + r, gc = k0 + c;
            As[r * A_LD + c] = (gr < M && gc < K) ? A[(size_t)gr * K + gc] : 0.0f;
        }
        // Load the B tile (BK x BN)
        for (int e = tid; e < BK * BN; e += NUM_THREADS) {
            const int r = e / BN, c = e % BN;
            const int gr = k0 + r, gc = col0 + c;
            Bs[r * B_LD + c] = (gr < K && gc < N) ? B[(size_t)gr * N + gc] : 0.0f;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; kk += WMMA_K) {
            wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, wmma::precision::tf32, wmma::row_major> a_frag[2];
            wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, wmma::precision::tf32, wmma::row_major> b_frag[2];
            #pragma unroll
            for (int i = 0; i < 2; ++i) {
                wmma::load_matrix_sync(a_frag[i], As + (warp_row * 32 + i * WMMA_M) * A_LD + kk, A_LD);
                #pragma unroll
                for (int t = 0; t < a_frag[i].num_elements; ++t)
                    a_frag[i].x[t] = wmma::__float_to_tf32(a_frag[i].x[t]);
            }
            #pragma unroll
            for (int j = 0; j < 2; ++j) {
                wmma::load_matrix_sync(b_frag[j], Bs + kk * B_LD + warp_col * 32 + j * WMMA_N, B_LD);
                #pragma unroll
                for (int t = 0; t < b_frag[j].num_elements; ++t)
                    b_frag[j].x[t] = wmma::__float_to_tf32(b_frag[j].x[t]);
            }
            #pragma unroll
            for (int i = 0; i < 2; ++i)
                #pragma unroll
                for (int j = 0; j < 2; ++j)
                    wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
        }
        __syncthreads();
    }

    // Epilogue: stage each fragment through shared memory so edge tiles can be masked
    #pragma unroll
    for (int i = 0; i < 2; ++i) {
        #pragma unroll
        for (int j = 0; j < 2; ++j) {
            wmma::store_matrix_sync(Cs[warp_id], acc[i][j], WMMA_N, wmma::mem_row_major);
            __syncwarp();
            const int base_r = row0 + warp_row * 32 + i * WMMA_M;
            const int base_c = col0 + warp_col * 32 + j * WMMA_N;
            for (int e = lane; e < WMMA_M * WMMA_N; e += 32) {
                const int r = base_r + e / WMMA_N;
                const int c = base_c + e % WMMA_N;
                if (r < M && c < N) C[(size_t)r * N + c] = Cs[warp_id][e];
            }
            __syncwarp();
        }
    }
}

torch::Tensor wmma_matmul(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "inputs must be 2D");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimensions must match");
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int M = a.size(0);
    const int K = a.size(1);
    const int N = b.size(1);
    auto C = torch::empty({M, N}, a.options());

    dim3 block(NUM_THREADS);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    wmma_tf32_gemm_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
    return C;
}
"""

wmma_gemm_cpp_source = "torch::Tensor wmma_matmul(torch::Tensor A, torch::Tensor B);"

wmma_gemm = load_inline(
    name="wmma_tf32_gemm",
    cpp_sources=wmma_gemm_cpp_source,
    cuda_sources=wmma_gemm_source,
    functions=["wmma_matmul"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.wmma_gemm = wmma_gemm

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.wmma_gemm.wmma_matmul(A, B)
