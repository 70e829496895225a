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

// What models write most (KernelBench generations): a template kernel launched once per type of
// an AT_DISPATCH macro. The device part instantiates each type through an address function the
// host part launches through (nvcc keeps template kernels' host stubs internal).
TEST(CudaSplit, TemplateKernelsUnderAtDispatchAreInstantiatedForEachType) {
  auto attempt = split_cuda_source(with_header(R"(
template <typename scalar_t>
__global__ void scale_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * scalar_t(2);
}
torch::Tensor scale(torch::Tensor x) {
  auto y = torch::empty_like(x);
  const int64_t n = x.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", ([&] {
    scale_kernel<scalar_t><<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
  }));
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_FALSE(contains(device, "torch")) << device;
  for (const char* type : {"float", "double"})
    EXPECT_TRUE(contains(device, std::string("template <> void* kforge_split_address_scale_kernel<") + type +
                                     ">() { return (void*)&scale_kernel<" + type + ">; }"))
        << device;
  EXPECT_TRUE(contains(host, "template <typename scalar_t> void* kforge_split_address_scale_kernel();")) << host;
  EXPECT_TRUE(contains(host, "template <typename scalar_t> void scale_kernel(const scalar_t* __restrict__ x,")) << host;
  EXPECT_TRUE(contains(host, "::kforge_split::launch(reinterpret_cast<decltype(&scale_kernel<scalar_t>)>("
                             "kforge_split_address_scale_kernel<scalar_t>()), (n + 255) / 256, 256)("))
      << host;
}

// The half-precision dispatch macros: c10's Half and BFloat16 instances, whose (small) headers
// the device part includes first.
TEST(CudaSplit, HalfPrecisionDispatchIncludesC10sTypesOnTheDeviceSide) {
  auto attempt = split_cuda_source(with_header(R"(
template <typename scalar_t> __global__ void k(scalar_t* y) { y[0] = scalar_t(1); }
void f(torch::Tensor y) {
  AT_DISPATCH_FLOATING_TYPES_AND2(at::ScalarType::Half, at::ScalarType::BFloat16, y.scalar_type(), "f", ([&] {
    k<scalar_t><<<1, 1>>>(y.data_ptr<scalar_t>());
  }));
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(y.scalar_type(), "g", ([&] { k<scalar_t><<<1, 1>>>(y.data_ptr<scalar_t>()); }));
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  EXPECT_EQ(device.rfind("#include <c10/util/Half.h>\n#include <c10/util/BFloat16.h>\n", 0), 0u) << device;
  for (const char* type : {"float", "double", "c10::Half", "c10::BFloat16"})
    EXPECT_TRUE(contains(device, std::string("kforge_split_address_k<") + type + ">()")) << type << "\n" << device;
}

// Template arguments written out (a block size, a type) are instantiated as written; the
// constants they name are in the device part too.
TEST(CudaSplit, TemplateKernelsWithWrittenArgumentsInANamespace) {
  auto attempt = split_cuda_source(with_header(R"(
#define BLOCK 256
namespace ops {
template <int B, typename T>
__global__ void __launch_bounds__(B) fill(T* y, int n) { int i = blockIdx.x * B + threadIdx.x; if (i < n) y[i] = T(1); }
}
torch::Tensor run(torch::Tensor y) {
  ops::fill<BLOCK, float><<<1, BLOCK>>>(y.data_ptr<float>(), 8);
  ops::fill<128, float><<<1, 128>>>(y.data_ptr<float>(), 8);
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_TRUE(contains(device, "namespace ops {\ntemplate <> void* kforge_split_address_fill<128, float>()")) << device;
  EXPECT_TRUE(contains(device, "template <> void* kforge_split_address_fill<BLOCK, float>() { return (void*)&fill<BLOCK, float>; }"))
      << device;
  EXPECT_TRUE(contains(host, "reinterpret_cast<decltype(&ops::fill<BLOCK, float>)>(ops::kforge_split_address_fill<BLOCK, float>())"))
      << host;
}

// A block size held in a constant local to the host function, as models write it: the device part
// has no such name, so its value is instantiated (the host part keeps the name).
TEST(CudaSplit, LocalConstantsInTemplateArgumentsAreReplacedByTheirValues) {
  auto attempt = split_cuda_source(with_header(R"(
template <int BLOCK>
__global__ void k(float* y) { y[threadIdx.x] = BLOCK; }
torch::Tensor run(torch::Tensor y) {
  constexpr int kBlock = 256;
  const int kTwice = kBlock * 2;
  k<kBlock><<<1, kBlock>>>(y.data_ptr<float>());
  k<kTwice><<<1, kBlock>>>(y.data_ptr<float>());
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  EXPECT_TRUE(contains(device, "kforge_split_address_k<(256)>() { return (void*)&k<(256)>; }")) << device;
  EXPECT_TRUE(contains(device, "kforge_split_address_k<((256) * 2)>()")) << device;
  EXPECT_FALSE(contains(device, "kBlock")) << device;
  EXPECT_TRUE(contains(attempt.split->host_cpp, "kforge_split_address_k<kBlock>()")) << attempt.split->host_cpp;
}

// Shapes that hide a kernel's host stub from another translation unit, made visible: an
// anonymous namespace gets a name (and a using-directive), a static kernel loses `static`, and an
// extern "C" block is kept around its items on both sides.
TEST(CudaSplit, HiddenKernelsAreMadeVisibleToTheHostPart) {
  auto attempt = split_cuda_source(with_header(R"(
namespace {
__global__ void hidden(float* y) { y[0] = 1.f; }
}
static __global__ void local_kernel(float* y) { y[1] = 2.f; }
extern "C" {
__global__ void c_kernel(float* y) { y[2] = 3.f; }
}
torch::Tensor run(torch::Tensor y) {
  hidden<<<1, 1>>>(y.data_ptr<float>());
  local_kernel<<<1, 1>>>(y.data_ptr<float>());
  c_kernel<<<1, 1>>>(y.data_ptr<float>());
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_TRUE(contains(device, "namespace kforge_split_anon_1 {\n__global__ void hidden")) << device;
  EXPECT_TRUE(contains(host, "namespace kforge_split_anon_1 {\nvoid hidden(float* y);\n}\nusing namespace kforge_split_anon_1;"))
      << host;
  EXPECT_FALSE(contains(device, "static __global__")) << device;
  EXPECT_TRUE(contains(host, "void local_kernel(float* y);")) << host;
  EXPECT_TRUE(contains(host, "extern \"C\" {\nvoid c_kernel(float* y);\n}")) << host;
  EXPECT_TRUE(contains(host, "::kforge_split::launch(hidden, 1, 1)")) << host;
}

// A template kernel's instance named outside a launch (an occupancy query, a shared-memory
// attribute, in a helper of its own): its host stub is local to the device part's object, so the
// host part names the address the device part hands out, and the instance is defined there.
TEST(CudaSplit, TemplateKernelInstancesNamedOutsideALaunchUseTheDevicePartsAddress) {
  auto attempt = split_cuda_source(with_header(R"(
template <bool B, int N>
__global__ void k(float* y) { y[0] = B ? N : 0; }
static void allow_more_shared_memory() {
  cudaFuncSetAttribute(k<true, 64>, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
}
torch::Tensor run(torch::Tensor y) {
  int n = 0;
  allow_more_shared_memory();
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k<true, 64>, 256, 0);
  k<true, 64><<<n, 256, 100000>>>(y.data_ptr<float>());
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  const std::string address = "reinterpret_cast<decltype(&k<true, 64>)>(kforge_split_address_k<true, 64>())";
  EXPECT_TRUE(contains(host, "cudaFuncSetAttribute(" + address + ", cudaFuncAttributeMaxDynamicSharedMemorySize")) << host;
  EXPECT_TRUE(contains(host, "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, " + address + ", 256, 0)")) << host;
  EXPECT_TRUE(contains(host, "::kforge_split::launch(" + address + ", n, 256, 100000)")) << host;
  EXPECT_FALSE(contains(device, "allow_more_shared_memory")) << device;
  const std::string instance = "template <> void* kforge_split_address_k<true, 64>()";
  ASSERT_TRUE(contains(device, instance)) << device;
  EXPECT_EQ(device.find(instance), device.rfind(instance)) << "one instance, defined once: " << device;
}

// A launch through an object-like macro that names a template kernel's instance, as models write
// a chosen vector width: read as a launch of that instance.
TEST(CudaSplit, LaunchesThroughAMacroNamingAnInstance) {
  auto attempt = split_cuda_source(with_header(R"(
template <int VEC>
__global__ void relu(const float* x, float* y, int n) { int i = threadIdx.x * VEC; if (i < n) y[i] = x[i]; }
#define RELU_KERNEL relu<4>
#define PLAIN_BLOCK 256
torch::Tensor run(torch::Tensor x, torch::Tensor y) {
  RELU_KERNEL<<<1, PLAIN_BLOCK>>>(x.data_ptr<float>(), y.data_ptr<float>(), 8);
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  EXPECT_TRUE(contains(attempt.split->device_cu, "template <> void* kforge_split_address_relu<4>()")) << attempt.split->device_cu;
  EXPECT_TRUE(contains(attempt.split->host_cpp,
                       "::kforge_split::launch(reinterpret_cast<decltype(&relu<4>)>(kforge_split_address_relu<4>()), 1, PLAIN_BLOCK)"))
      << attempt.split->host_cpp;
}

// Kernels written after PyTorch's extension tutorial take packed accessors: the device part gets
// ATen's accessor header and torch::'s names for them, and the host part, compiled by g++, the
// RestrictPtrTraits torch defines for nvcc only.
TEST(CudaSplit, PackedAccessorKernelsGetTheAccessorHeaderAndHostTraits) {
  auto attempt = split_cuda_source(with_header(R"(
#include <torch/extension.h>
template <typename scalar_t>
__global__ void copy_rows(const torch::PackedTensorAccessor32<scalar_t, 2, torch::RestrictPtrTraits> in,
                          torch::PackedTensorAccessor32<scalar_t, 2, torch::RestrictPtrTraits> out) {
  out[blockIdx.x][threadIdx.x] = in[blockIdx.x][threadIdx.x];
}
torch::Tensor run(torch::Tensor x, torch::Tensor y) {
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "run", ([&] {
    copy_rows<scalar_t><<<x.size(0), x.size(1)>>>(x.packed_accessor32<scalar_t, 2, torch::RestrictPtrTraits>(),
                                                  y.packed_accessor32<scalar_t, 2, torch::RestrictPtrTraits>());
  }));
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_TRUE(contains(device, "#include <ATen/core/TensorAccessor.h>")) << device;
  EXPECT_TRUE(contains(device, "using at::PackedTensorAccessor32;")) << device;
  EXPECT_LT(device.find("using at::RestrictPtrTraits;"), device.find("__global__ void copy_rows")) << device;
  EXPECT_FALSE(contains(device, "torch/extension.h")) << device;
  EXPECT_TRUE(contains(device, "kforge_split_address_copy_rows<float>()")) << device;
  EXPECT_TRUE(contains(host, "struct RestrictPtrTraits {\n  typedef T* __restrict__ PtrType;")) << host;
  EXPECT_LT(host.find("struct RestrictPtrTraits"), host.find("void copy_rows(")) << host;
  EXPECT_FALSE(contains(device, "struct RestrictPtrTraits")) << "nvcc has torch's own";

  // A source without accessors gets neither.
  auto plain = split_cuda_source(with_header("__global__ void k(float* y) { y[0] = 1.f; }\n"
                                             "torch::Tensor run(torch::Tensor y) { k<<<1, 1>>>(y.data_ptr<float>()); return y; }\n"));
  ASSERT_TRUE(plain.split) << plain.why_not;
  EXPECT_FALSE(contains(plain.split->device_cu, "TensorAccessor")) << plain.split->device_cu;
  EXPECT_FALSE(contains(plain.split->host_cpp, "RestrictPtrTraits")) << plain.split->host_cpp;
}

// `__constant__` weights filled from the host with cudaMemcpyToSymbol, as convolution kernels
// are written: nvcc's host-side shadow of the variable is local to the kernels' object, so the
// host part names the shadow through an address function the device part defines.
TEST(CudaSplit, DeviceVariablesNamedByHostCodeUseTheDevicePartsAddress) {
  auto attempt = split_cuda_source(with_header(R"(
#define K 3
__constant__ float c_weights[K * K];
__device__ int calls = 0;
__device__ __forceinline__ float tap(int i) { return c_weights[i]; }
__global__ void blur(const float* x, float* y) { y[threadIdx.x] = tap(threadIdx.x % (K * K)) * x[threadIdx.x]; }
torch::Tensor run(torch::Tensor x, torch::Tensor w) {
  auto y = torch::empty_like(x);
  cudaMemcpyToSymbol(c_weights, w.data_ptr<float>(), sizeof(c_weights), 0, cudaMemcpyDeviceToDevice);
  blur<<<1, 64>>>(x.data_ptr<float>(), y.data_ptr<float>());
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_TRUE(contains(device, "__constant__ float c_weights[K * K];")) << device;
  EXPECT_TRUE(contains(device, "void* kforge_split_symbol_c_weights() { return (void*)&c_weights; }")) << device;
  EXPECT_TRUE(contains(device, "void* kforge_split_symbol_calls() { return (void*)&calls; }")) << device;
  EXPECT_FALSE(contains(host, "__constant__")) << host;
  EXPECT_TRUE(contains(host, "void* kforge_split_symbol_c_weights();")) << host;
  const std::string shadow = "(*reinterpret_cast<float(*)[K * K]>(kforge_split_symbol_c_weights()))";
  EXPECT_TRUE(contains(host, "cudaMemcpyToSymbol(" + shadow + ", w.data_ptr<float>(), sizeof(" + shadow + "), 0,")) << host;
  EXPECT_FALSE(contains(host, "tap(")) << "a device function stays in the device part: " << host;

  // A member of the same name is not the variable.
  auto member = split_cuda_source(with_header(
      "__device__ int size;\n__global__ void k(int* y) { y[0] = size; }\n"
      "torch::Tensor run(torch::Tensor y) { k<<<1, y.size(0)>>>(y.data_ptr<int>()); size_t n = sizeof(size); return y; }\n"));
  ASSERT_TRUE(member.split) << member.why_not;
  EXPECT_TRUE(contains(member.split->host_cpp, "y.size(0)")) << member.split->host_cpp;
  EXPECT_TRUE(contains(member.split->host_cpp, "sizeof((*reinterpret_cast<int*>(kforge_split_symbol_size())))"))
      << member.split->host_cpp;
}

// A launch inside a function-like macro (a switch over block sizes, as tuned kernels are written):
// the host part gets the launch written out, since g++ cannot read `<<<`, and each instance the
// cases launch is defined in the device part.
TEST(CudaSplit, LaunchesInsideAMacroAreWrittenOutInTheHostPart) {
  auto attempt = split_cuda_source(with_header(R"(
template <int BLOCK, typename T>
__global__ void scale(const T* x, T* y, int n) { int i = blockIdx.x * BLOCK + threadIdx.x; if (i < n) y[i] = 2 * x[i]; }
#define LAUNCH_SCALE(BS, T) /* one block size */ \
  scale<BS, T><<<(n + BS - 1) / BS, BS>>>(x.data_ptr<T>(), y.data_ptr<T>(), n)  // no sync
torch::Tensor run(torch::Tensor x, torch::Tensor y, int block) {
  const int n = x.numel();
  switch (block) {
    case 128: LAUNCH_SCALE(128, float); break;
    default: LAUNCH_SCALE(256, float); break;
  }
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_TRUE(contains(device, "kforge_split_address_scale<128, float>()")) << device;
  EXPECT_TRUE(contains(device, "kforge_split_address_scale<256, float>()")) << device;
  EXPECT_TRUE(contains(host, "case 128: ::kforge_split::launch(reinterpret_cast<decltype(&scale<128, float>)>"
                             "(kforge_split_address_scale<128, float>()), (n + 128 - 1) / 128, 128)(x.data_ptr<float>(), "
                             "y.data_ptr<float>(), n); break;"))
      << host;
  EXPECT_FALSE(contains(host, "LAUNCH_SCALE(128, float)")) << "no call of the macro is left: " << host;
  EXPECT_FALSE(contains(host, "// no sync; break;")) << "the body's comment is not written out: " << host;
  EXPECT_FALSE(contains(host, "LAUNCH_SCALE(256, float)")) << "no call of the macro is left: " << host;
}

// A launch macro that pastes the kernel's name together (`NAME##_kernel`) and quotes an argument
// for a message: written out as the preprocessor would, the launch is read as any other.
TEST(CudaSplit, LaunchMacrosThatPasteAndQuoteAreWrittenOut) {
  auto attempt = split_cuda_source(with_header(R"(
__global__ void relu_kernel(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i] > 0 ? x[i] : 0; }
#define LAUNCH(NAME) NAME##_kernel<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n); \
  TORCH_CHECK(cudaGetLastError() == cudaSuccess, #NAME " failed")
torch::Tensor run(torch::Tensor x, torch::Tensor y) {
  const int n = x.numel();
  LAUNCH(relu);
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& host = attempt.split->host_cpp;
  EXPECT_TRUE(contains(host, "::kforge_split::launch(relu_kernel, 1, 256)(x.data_ptr<float>(), y.data_ptr<float>(), n);"))
      << host;
  EXPECT_TRUE(contains(host, "\"relu\" \" failed\"")) << host;
  EXPECT_FALSE(contains(host, "LAUNCH(relu)")) << host;
}

// A template kernel launched without its template argument, which nvcc deduces from the
// arguments: where every pointer-to-T parameter is given a tensor's data_ptr<TYPE>() of one
// TYPE, the split writes that argument (under AT_DISPATCH, each type's instance).
TEST(CudaSplit, DeducedTemplateArgumentsFromTypedDataPointersAreWritten) {
  auto attempt = split_cuda_source(with_header(R"(
template <typename scalar_t>
__global__ void relu(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > scalar_t(0) ? x[i] : scalar_t(0);
}
torch::Tensor run(torch::Tensor x, torch::Tensor y) {
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "relu", ([&] {
    relu<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), x.numel());
  }));
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  EXPECT_TRUE(contains(attempt.split->device_cu, "kforge_split_address_relu<float>()")) << attempt.split->device_cu;
  EXPECT_TRUE(contains(attempt.split->device_cu, "kforge_split_address_relu<double>()")) << attempt.split->device_cu;
  EXPECT_TRUE(contains(attempt.split->host_cpp, "reinterpret_cast<decltype(&relu<scalar_t>)>(kforge_split_address_relu<scalar_t>())"))
      << attempt.split->host_cpp;

  // Pointers of two types: not plain, so not guessed.
  auto mixed = split_cuda_source(with_header(
      "template <typename T> __global__ void k(const T* a, T* b) {}\n"
      "void f(torch::Tensor x, torch::Tensor y) { k<<<1, 1>>>(x.data_ptr<float>(), y.data_ptr<double>()); }\n"));
  EXPECT_FALSE(mixed.split);
  EXPECT_TRUE(contains(mixed.why_not, "a template kernel launched with its arguments deduced")) << mixed.why_not;
}

// Model-written sources stamp kernels out of a function-like macro: read with the calls written
// out, `##` pasted and `#x` quoted, so the kernels go to nvcc and their launches to the host part.
TEST(CudaSplit, KernelsDefinedByAMacroAreWrittenOut) {
  auto attempt = split_cuda_source(with_header(R"(
#define DEFINE_UNARY_KERNEL(NAME, EXPR) \
  __global__ void NAME##_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) { \
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; \
    if (i < n) { float v = x[i]; y[i] = (EXPR); } \
  } \
  static const char* NAME##_name = #NAME;
DEFINE_UNARY_KERNEL(sigmoid, 1.f / (1.f + expf(-v)))
DEFINE_UNARY_KERNEL(softsign,
                    v / (1.f + fabsf(v)));
torch::Tensor sigmoid_cuda(torch::Tensor x) {
  auto y = torch::empty_like(x);
  sigmoid_kernel<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_TRUE(contains(device, "__global__ void sigmoid_kernel(const float* __restrict__ x")) << device;
  EXPECT_TRUE(contains(device, "y[i] = (1.f / (1.f + expf(-v)));")) << device;
  EXPECT_TRUE(contains(device, "__global__ void softsign_kernel(")) << device;
  EXPECT_TRUE(contains(device, "softsign_name = \"softsign\";")) << device;
  EXPECT_FALSE(contains(host, "blockIdx")) << host;
  EXPECT_TRUE(contains(host, "void sigmoid_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n);")) << host;
  EXPECT_TRUE(contains(host, "::kforge_split::launch(sigmoid_kernel,")) << host;
}

// Tensor cores, cooperative groups and CUB are nvcc's: their headers, and the namespaces they
// declare (`using namespace nvcuda;`, `namespace cg = cooperative_groups;`), stay on its side; the
// host part (g++, without CUDA 13's include/cccl) could read neither. A namespace alias once made
// the splitter loop for ever.
TEST(CudaSplit, DeviceOnlyHeadersAndNamespacesStayWithTheKernels) {
  auto attempt = split_cuda_source(with_header(R"(
#include <mma.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
#include <cuda_bf16.h>
using namespace nvcuda;
namespace cg = cooperative_groups;
using cub::BlockReduce;
__global__ void k(float* y) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  y[0] = cg::reduce(tile, y[tile.thread_rank()], cg::plus<float>());
}
void f(torch::Tensor y) { k<<<1, 32>>>(y.data_ptr<float>()); }
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  for (const char* line : {"#include <mma.h>", "#include <cooperative_groups.h>", "#include <cooperative_groups/reduce.h>",
                           "#include <cub/cub.cuh>", "using namespace nvcuda;", "namespace cg = cooperative_groups;",
                           "using cub::BlockReduce;"}) {
    EXPECT_TRUE(contains(device, line)) << line;
    EXPECT_FALSE(contains(host, line)) << line;
  }
  EXPECT_TRUE(contains(host, "#include <cuda_bf16.h>")) << "host-readable CUDA headers go to both";
  EXPECT_TRUE(contains(device, "#include <cuda_bf16.h>"));
}

// `using cuda_t = typename CudaType<scalar_t>::type;` inside a dispatch's lambda, then
// `k<cuda_t>`: the device part instantiates the alias's definition for each dispatched type.
TEST(CudaSplit, TypeAliasesInsideADispatchStandForTheirDefinitions) {
  auto attempt = split_cuda_source(with_header(R"(
template <typename T> struct CudaType { using type = T; };
template <typename T> __global__ void k(T* y) {}
void f(torch::Tensor y) {
  AT_DISPATCH_FLOATING_TYPES(y.scalar_type(), "f", [&] {
    using cuda_t = typename CudaType<scalar_t>::type;
    k<cuda_t><<<1, 1>>>(reinterpret_cast<cuda_t*>(y.data_ptr<scalar_t>()));
  });
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  EXPECT_TRUE(contains(device, "kforge_split_address_k<typename CudaType<float>::type>()")) << device;
  EXPECT_TRUE(contains(device, "kforge_split_address_k<typename CudaType<double>::type>()")) << device;
}

// `template <typename Op> __global__ void map_kernel(const float*, float*, int64_t, Op op)`
// launched with `HardSigmoidOp()`: the functor's type is the instance's argument.
TEST(CudaSplit, FunctorTemplateArgumentsDeducedFromATemporaryAreWritten) {
  auto attempt = split_cuda_source(with_header(R"(
struct HardSigmoidOp {
  __device__ float operator()(float v) const { return fminf(fmaxf(v / 6.f + 0.5f, 0.f), 1.f); }
};
template <typename Op>
__global__ void map_kernel(const float* x, float* y, int64_t n, Op op) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = op(x[i]);
}
void f(torch::Tensor x, torch::Tensor y) {
  map_kernel<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel(), HardSigmoidOp());
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  EXPECT_TRUE(contains(attempt.split->device_cu, "kforge_split_address_map_kernel<HardSigmoidOp>()")) << attempt.split->device_cu;
  EXPECT_TRUE(contains(attempt.split->device_cu, "struct HardSigmoidOp")) << "the functor's type is on both sides";
  EXPECT_TRUE(contains(attempt.split->host_cpp, "struct HardSigmoidOp"));
}

// An '=' in a default template argument or a default function argument once read the kernel
// as a variable, whose item ran on to the next ';' and took the host wrapper to nvcc with it. An
// explicit instantiation line is nvcc's alone.
TEST(CudaSplit, DefaultArgumentsAndExplicitInstantiationsKeepTheirItems) {
  auto attempt = split_cuda_source(with_header(R"(
template <typename T, int BLOCK = 256>
__global__ void rms_kernel(const T* x, T* y, int n, float eps = 1e-5f) { if (threadIdx.x < BLOCK) y[0] = x[0] + eps; }
template __global__ void rms_kernel<float, 256>(const float*, float*, int, float);
torch::Tensor rms(torch::Tensor x, double eps = 1e-5) {
  auto y = torch::empty_like(x);
  if (x.numel() > 4096) rms_kernel<float><<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel(), eps);
  else rms_kernel<float, 128><<<1, 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel(), eps);
  return y;
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& device = attempt.split->device_cu;
  const auto& host = attempt.split->host_cpp;
  EXPECT_FALSE(contains(device, "torch::Tensor rms(")) << device;
  EXPECT_TRUE(contains(host, "torch::Tensor rms(torch::Tensor x, double eps = 1e-5) {")) << host;
  EXPECT_TRUE(contains(device, "template __global__ void rms_kernel<float, 256>(const float*, float*, int, float);")) << device;
  EXPECT_FALSE(contains(host, "template __global__")) << host;
  EXPECT_TRUE(contains(device, "kforge_split_address_rms_kernel<float>()")) << device;
  EXPECT_TRUE(contains(device, "kforge_split_address_rms_kernel<float, 128>()")) << device;
}

// `void C10_LAUNCH_BOUNDS_1(256) k(...)`: c10's macro header goes to nvcc's part (torch's headers
// do not), and the host part's declaration loses the attribute, as it loses __launch_bounds__.
TEST(CudaSplit, C10LaunchBoundsKeepTheirHeaderOnTheDeviceSide) {
  auto attempt = split_cuda_source(with_header(R"(
#include <c10/macros/Macros.h>
__global__ void C10_LAUNCH_BOUNDS_1(256) pool_kernel(const float* x, float* y, int64_t n) { y[0] = x[0]; }
void f(torch::Tensor x, torch::Tensor y) { pool_kernel<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel()); }
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  EXPECT_EQ(attempt.split->device_cu.rfind("#include <c10/macros/Macros.h>\n", 0), 0u) << attempt.split->device_cu;
  EXPECT_TRUE(contains(attempt.split->host_cpp, "void pool_kernel(const float* x, float* y, int64_t n);")) << attempt.split->host_cpp;
}

// Kernels overloaded on their parameter types: a launch picks its overload by its own arguments.
TEST(CudaSplit, OverloadedKernelsArePickedByTheLaunchsArguments) {
  auto attempt = split_cuda_source(with_header(R"(
__global__ void scale_kernel(const float* x, float* y, int64_t n) { y[0] = x[0]; }
__global__ void scale_kernel(const double* x, double* y, int64_t n) { y[0] = x[0]; }
void f(torch::Tensor x, torch::Tensor y) {
  if (x.scalar_type() == at::kFloat) scale_kernel<<<1, 1>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  else scale_kernel<<<1, 1>>>(x.data_ptr<double>(), y.data_ptr<double>(), x.numel());
}
)"));
  ASSERT_TRUE(attempt.split) << attempt.why_not;
  const auto& host = attempt.split->host_cpp;
  EXPECT_TRUE(contains(host, "auto kforge_split_pick_scale_kernel(const float* x, float* y, int64_t n) -> void (*)(const float* x, float* y, int64_t n);")) << host;
  EXPECT_TRUE(contains(host, "auto kforge_split_pick_scale_kernel(const double* x, double* y, int64_t n) -> void (*)(const double* x, double* y, int64_t n);")) << host;
  EXPECT_TRUE(contains(host, "::kforge_split::launch(static_cast<decltype(kforge_split_pick_scale_kernel(x.data_ptr<double>(), "
                             "y.data_ptr<double>(), x.numel()))>(&scale_kernel), 1, 1)")) << host;
}

TEST(CudaSplit, RefusesWhatItCannotSplitSafely) {
  struct Case {
    const char* why;
    const char* body;
  };
  const Case cases[] = {
      {"a launch of a template kernel it did not see defined",
       "__global__ void k(float* y) {}\nvoid f(float* y) { k<float><<<1, 1>>>(y); }\n"},
      {"a template kernel launched with its arguments deduced",
       "template <typename T> __global__ void k(T* y) {}\nvoid f(float* y) { k<<<1, 1>>>(y); }\n"},
      {"a template kernel launched from a template function",
       "template <typename T> __global__ void k(T* y) {}\ntemplate <typename T> void f(T* y) { k<T><<<1, 1>>>(y); }\n"},
      {"AT_DISPATCH_COMPLEX_TYPES (a dispatch macro it does not know)",
       "template <typename T> __global__ void k(T* y) {}\nvoid f(torch::Tensor y) {\n"
       "  AT_DISPATCH_COMPLEX_TYPES(y.scalar_type(), \"f\", ([&] { k<scalar_t><<<1, 1>>>(y.data_ptr<scalar_t>()); }));\n}\n"},
      {"AT_DISPATCH_FLOATING_TYPES_AND with a type other than Half or BFloat16",
       "template <typename T> __global__ void k(T* y) {}\nvoid f(torch::Tensor y) {\n"
       "  AT_DISPATCH_FLOATING_TYPES_AND(at::ScalarType::Bool, y.scalar_type(), \"f\", ([&] { k<scalar_t><<<1, 1>>>(y.data_ptr<scalar_t>()); }));\n}\n"},
      {"scalar_t outside an AT_DISPATCH macro",
       "template <typename T> __global__ void k(T* y) {}\nvoid f(float* y) { typedef float scalar_t; k<scalar_t><<<1, 1>>>(y); }\n"},
      {"a variadic macro that defines kernels",
       "#define KS(...) __global__ void k(float* y) { __VA_ARGS__; }\nKS(y[0] = 1)\nvoid f(float* y) { k<<<1, 1>>>(y); }\n"},
      {"DEFINE_K called with 1 arguments for 2",
       "#define DEFINE_K(N, E) __global__ void N##_k(float* y) { y[0] = E; }\nDEFINE_K(one)\n"},
      {"template kernel k named outside a launch without its template arguments",
       "template <typename T> __global__ void k(T* y) {}\nvoid f(float* y) {\n  int n = 0;\n"
       "  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 256, 0);\n  k<float><<<n, 256>>>(y);\n}\n"},
      {"a template kernel launched from a template function",
       "template <int N> __global__ void k(float* y) {}\ntemplate <int N> void f(float* y) {\n"
       "  cudaFuncSetAttribute(k<N>, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);\n}\n"},
      {"host code calls CUB's or Thrust's device-wide algorithms",
       "__global__ void k(float* y) {}\nvoid f(float* in, float* out, void* tmp, size_t bytes, int n) {\n"
       "  cub::DeviceReduce::Sum(tmp, bytes, in, out, n);\n  k<<<1, 1>>>(out);\n}\n"},
      {"host code calls CUB's or Thrust's device-wide algorithms",
       "__global__ void k(float* y) {}\nvoid f(float* y, int n) {\n  thrust::sort(thrust::device, y, y + n);\n  k<<<1, 1>>>(y);\n}\n"},
      {"launch macro L takes variadic arguments",
       "__global__ void k(float* y) {}\n#define L(...) k<<<1, 1>>>(__VA_ARGS__)\nvoid f(float* y) { L(y); }\n"},
      {"launch macro L called with 2 arguments",
       "__global__ void k(float* y) {}\n#define L(Y) k<<<1, 1>>>(Y)\nvoid f(float* y) { L(y, y); }\n"},
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
