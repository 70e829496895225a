// The splitter of load_inline CUDA sources (build/cuda_split.hpp): what goes to nvcc, what to the
// host compiler, how launches are rewritten, and every shape it must refuse rather than guess.
// That a split compiles and links is tested against the real compilers in the cpu and gpu tests.
#include "build/cuda_split.hpp"

#include <gtest/gtest.h>

namespace kforge::build {
namespace {

constexpr const char* kHeader = "#include <torch/types.h>\n#include <cuda.h>\n#include <cuda_runtime.h>\n";

std::string with_header(const std::string& body) { return kHeader + body; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CudaSplit, KernelToNvccWrapperToHostWithLaunchRewritten) {
  auto attempt = split_cuda_source(with_header(R"(
#include <torch/extension.h>
#define BLOCK 256
// a comment with kernel<<<1, 1>>>() in it is no launch
__device__ __forceinline__ float relu(float v) { return v > 0.f ? v : 0.f; }
__global__ void __launch_bounds__(BLOCK) relu_kernel(const float* __restrict__ x, float* y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = relu(x[i]);
}
torch::Tensor relu_cuda(torch::Tensor x) {
  auto y = torch::empty_like(x);
  int64_t n = x.numel();
  relu_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_FALSE(contains(device, "torch")) << device;
  EXPECT_TRUE(contains(device, "#include <cuda_runtime.h>"));
  EXPECT_TRUE(contains(device, "#define BLOCK 256"));
  EXPECT_TRUE(contains(device, "__device__ __forceinline__ float relu"));
  EXPECT_TRUE(contains(device, "__global__ void __launch_bounds__(BLOCK) relu_kernel"));
  EXPECT_FALSE(contains(device, "relu_cuda"));

  EXPECT_EQ(host.rfind("#include <torch/extension.h>", 0), 0u) << "the precompiled header must come first";
  EXPECT_TRUE(contains(host, "void relu_kernel(const float* __restrict__ x, float* y, int64_t n);")) << host;
  EXPECT_FALSE(contains(host, "__global__ void"));
  EXPECT_FALSE(contains(host, "float relu(float v)")) << "device functions stay on the device";
  EXPECT_TRUE(contains(host, "::kforge_split::launch(relu_kernel, (n + BLOCK - 1) / BLOCK, BLOCK, 0, "
                             "at::cuda::getCurrentCUDAStream())(\n      x.data_ptr<float>()"))
      << host;
  EXPECT_FALSE(contains(host, "launch(kernel, 1, 1)")) << "a launch in a comment is no launch";
}

TEST(CudaSplit, HostDeviceFunctionsAndTypesGoToBoth) {
  auto attempt = split_cuda_source(with_header(R"(
struct Pair { float a, b; };
__host__ __device__ inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
__constant__ float table[16];
__global__ void k(Pair p, float* out) { out[0] = p.a + table[0]; }
void launch(float* out, cudaStream_t s) { Pair p{1, 2}; k<<<ceil_div(10, 4), 32, 0, s>>>(p, out); }
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  for (const char* both : {"struct Pair", "ceil_div(int a, int b)"}) {
    EXPECT_TRUE(contains(device, both)) << both;
    EXPECT_TRUE(contains(host, both)) << both;
  }
  EXPECT_TRUE(contains(device, "__constant__ float table[16];"));
  EXPECT_FALSE(contains(host, "table[16]"));
  EXPECT_TRUE(contains(host, "::kforge_split::launch(k, ceil_div(10, 4), 32, 0, s)(p, out)")) << host;
}

TEST(CudaSplit, NamespacesAreKeptOnBothSides) {
  auto attempt = split_cuda_source(with_header(R"(
namespace mine {
__global__ void fill(float* y) { y[threadIdx.x] = 1.f; }
}
torch::Tensor run(torch::Tensor y) { mine::fill<<<1, 32>>>(y.data_ptr<float>()); return y; }
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  EXPECT_TRUE(contains(attempt.split->device_cu, "namespace mine {"));
  EXPECT_TRUE(contains(attempt.split->host_cpp, "namespace mine {"));
  EXPECT_TRUE(contains(attempt.split->host_cpp, "void fill(float* y);"));
  EXPECT_TRUE(contains(attempt.split->host_cpp, "::kforge_split::launch(mine::fill, 1, 32)(y.data_ptr<float>())"));
}

// CUDA sources with no kernel (a wrapper around ATen or cuBLAS) are host code: all of it goes to
// the host unit, nothing to nvcc.
TEST(CudaSplit, HostOnlyCudaSourceHasNoDevicePart) {
  auto attempt = split_cuda_source(
      with_header("torch::Tensor f(torch::Tensor x) { return torch::addmm(x, x, x); }\n"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  EXPECT_TRUE(attempt.split->device_cu.empty());
  EXPECT_TRUE(contains(attempt.split->host_cpp, "torch::addmm(x, x, x)"));
}

TEST(CudaSplit, RefusesWhatItCannotSplitSafely) {
  struct Case {
    const char* why;
    const char* body;
  };
  const Case cases[] = {
      {"a template kernel", "template <typename T> __global__ void k(T* y) {}\n"},
      {"a launch of a template kernel",
       "__global__ void k(float* y) {}\nvoid f(float* y) { k<float><<<1, 1>>>(y); }\n"},
      {"an extern \"C\" block", "extern \"C\" {\n__global__ void k(float* y) {}\n}\n"},
      {"an anonymous namespace", "namespace {\n__global__ void k(float* y) {}\n}\n"},
      {"a static kernel", "static __global__ void k(float* y) {}\n"},
      {"device code but no kernel", "__device__ int f() { return 1; }\n"},
      {"unbalanced brackets", "__global__ void k(float* y) {\n"},
  };
  for (const auto& c : cases) {
    auto attempt = split_cuda_source(with_header(c.body));
    EXPECT_FALSE(attempt.split) << c.body;
    EXPECT_TRUE(contains(attempt.why_not, c.why)) << c.body << " -> " << attempt.why_not;
  }
}

}  // namespace
}  // namespace kforge::build
