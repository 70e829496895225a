import torch, statistics, os
from torch.utils.cpp_extension import load_inline
cuda = r"""
#include <torch/extension.h>
__device__ __forceinline__ float r1(float v){return v < 0.f ? 0.f : v;}
__device__ __forceinline__ float4 r4(float4 v){v.x=r1(v.x);v.y=r1(v.y);v.z=r1(v.z);v.w=r1(v.w);return v;}
__global__ void k_gs_hint(const float4* in, float4* out, int64_t n4){ for(int64_t i=(int64_t)blockIdx.x*blockDim.x+threadIdx.x;i<n4;i+=(int64_t)gridDim.x*blockDim.x){__stcs(out+i, r4(__ldcs(in+i)));} }
__global__ void k_gs(const float4* __restrict__ in, float4* __restrict__ out, int64_t n4){ for(int64_t i=(int64_t)blockIdx.x*blockDim.x+threadIdx.x;i<n4;i+=(int64_t)gridDim.x*blockDim.x){out[i]=r4(in[i]);} }
template<int U> __global__ void k_unroll(const float4* __restrict__ in, float4* __restrict__ out, int64_t n4){
  int64_t base=(int64_t)blockIdx.x*blockDim.x*U+threadIdx.x; float4 v[U];
  #pragma unroll
  for(int u=0;u<U;++u){int64_t i=base+(int64_t)u*blockDim.x; if(i<n4) v[u]=in[i];}
  #pragma unroll
  for(int u=0;u<U;++u){int64_t i=base+(int64_t)u*blockDim.x; if(i<n4) out[i]=r4(v[u]);}
}
template<int U> __global__ void k_gs_unroll(const float4* __restrict__ in, float4* __restrict__ out, int64_t n4){
  const int64_t step=(int64_t)gridDim.x*blockDim.x*U;
  for(int64_t base=(int64_t)blockIdx.x*blockDim.x*U+threadIdx.x; base<n4; base+=step){ float4 v[U];
  #pragma unroll
  for(int u=0;u<U;++u){int64_t i=base+(int64_t)u*blockDim.x; if(i<n4) v[u]=in[i];}
  #pragma unroll
  for(int u=0;u<U;++u){int64_t i=base+(int64_t)u*blockDim.x; if(i<n4) out[i]=r4(v[u]);}}
}
torch::Tensor run(torch::Tensor x, int variant, int64_t blocks_arg, int threads){
  auto y=torch::empty_like(x); int64_t n4=x.numel()/4; auto i=(const float4*)x.data_ptr<float>(); auto o=(float4*)y.data_ptr<float>();
  int64_t b;
  switch(variant){
   case 0: k_gs_hint<<<blocks_arg,threads>>>(i,o,n4); break;
   case 1: k_gs<<<blocks_arg,threads>>>(i,o,n4); break;
   case 2: b=(n4+threads-1)/threads; k_gs<<<b,threads>>>(i,o,n4); break;
   case 3: b=(n4+threads*2-1)/(threads*2); k_unroll<2><<<b,threads>>>(i,o,n4); break;
   case 4: b=(n4+threads*4-1)/(threads*4); k_unroll<4><<<b,threads>>>(i,o,n4); break;
   case 5: k_gs_unroll<4><<<blocks_arg,threads>>>(i,o,n4); break;
   case 6: k_gs_unroll<2><<<blocks_arg,threads>>>(i,o,n4); break;
  }
  TORCH_CHECK(cudaGetLastError()==cudaSuccess); return y;
}
"""
ext = load_inline(name="relu_variants_bench", cpp_sources="torch::Tensor run(torch::Tensor x, int variant, int64_t blocks_arg, int threads);", cuda_sources=cuda, functions=["run"])
x = torch.randn(16384, 16384, device="cuda")
ref = torch.relu(x)
def bench(f, iters=30):
    for _ in range(5): f()
    torch.cuda.synchronize(); ts=[]
    for _ in range(iters):
        s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True); s.record(); f(); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    return statistics.median(ts)
for rep in range(2):
    print("torch.relu", round(bench(lambda: torch.relu(x)),4))
    for v, blocks, th in [(0,132*8,256),(1,132*8,256),(1,132*32,256),(2,0,256),(2,0,128),(3,0,256),(4,0,256),(4,0,128),(5,132*8,256),(5,132*16,256),(6,132*16,256),(5,132*4,512)]:
        y = ext.run(x, v, blocks, th); assert torch.equal(y, ref), v
        print(v, blocks, th, round(bench(lambda: ext.run(x, v, blocks, th)),4), flush=True)
# matmul accuracy: cuBLAS vs fp64
import importlib.util
spec=importlib.util.spec_from_file_location("c","solutions/level1/1_Square_Matmul/cuda_tiled.py"); c=importlib.util.module_from_spec(spec); spec.loader.exec_module(c)
new=c.ModelNew()
torch.manual_seed(0)
for scale in (1.0, 2048**-0.5):
    A=torch.randn(2048,2048,device="cuda")*scale; B=torch.randn(2048,2048,device="cuda")
    r=A@B; n=new(A,B); d=(A.double()@B.double())
    print(f"scale {scale:.4g}: |ref| mean {r.abs().mean().item():.3g} cublas-fp64 {(r.double()-d).abs().max().item():.3g} tiled-fp64 {(n.double()-d).abs().max().item():.3g} tiled-cublas {(n-r).abs().max().item():.3g} allclose(tiled,cublas) {torch.allclose(n,r,atol=1e-4,rtol=1e-4)} allclose(cublas,fp64) {torch.allclose(r,d.float(),atol=1e-4,rtol=1e-4)} allclose(tiled,fp64) {torch.allclose(n,d.float(),atol=1e-4,rtol=1e-4)}")
