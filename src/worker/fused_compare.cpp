#include "worker/fused_compare.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>
#include <string>
#include <vector>

#if KFORGE_WITH_CUDA
#include <c10/cuda/CUDAStream.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#endif

namespace kforge::worker {

#if KFORGE_WITH_CUDA
namespace {

// One pass, one thread per element stride. Written so each figure is what ATen computes for it in
// compare_outputs: |k - r| and |r| in the tensor's type, the tolerance as rtol * |r| + atol with two
// roundings (compiled with --fmad=false), the relative error as |k - r| / max(|r|, floor). A pair
// with a NaN or Inf is counted apart and left out (x - x == 0 holds exactly for finite x). The
// maxima are of non-negative values, so their doubles' bits order as unsigned integers do.
constexpr const char* kKernelSource = R"(
typedef unsigned long long u64;
template <typename T> __device__ __forceinline__ T magnitude(T x) { return x < T(0) ? -x : x; }
template <typename T> __device__ __forceinline__ T larger(T a, T b) { return a < b ? b : a; }

template <typename T>
__device__ void close_figures(const T* __restrict__ ref, const T* __restrict__ cand, long long n, T rtol, T atol,
                              T floor, u64* out) {
  T max_abs = T(0), max_rel = T(0);
  u64 not_close = 0, non_finite = 0;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T r = ref[i], k = cand[i];
    if (!(r - r == T(0)) || !(k - k == T(0))) {
      ++non_finite;
      continue;
    }
    const T diff = magnitude(k - r);
    const T scale = magnitude(r);
    if (!(diff <= scale * rtol + atol)) ++not_close;
    max_abs = larger(max_abs, diff);
    max_rel = larger(max_rel, diff / larger(scale, floor));
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    max_abs = larger(max_abs, __shfl_down_sync(0xffffffffu, max_abs, offset));
    max_rel = larger(max_rel, __shfl_down_sync(0xffffffffu, max_rel, offset));
    not_close += __shfl_down_sync(0xffffffffu, not_close, offset);
    non_finite += __shfl_down_sync(0xffffffffu, non_finite, offset);
  }
  __shared__ T block_abs[32], block_rel[32];
  __shared__ u64 block_not_close[32], block_non_finite[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  if (lane == 0) {
    block_abs[warp] = max_abs;
    block_rel[warp] = max_rel;
    block_not_close[warp] = not_close;
    block_non_finite[warp] = non_finite;
  }
  __syncthreads();
  if (warp != 0) return;
  max_abs = lane < warps ? block_abs[lane] : T(0);
  max_rel = lane < warps ? block_rel[lane] : T(0);
  not_close = lane < warps ? block_not_close[lane] : 0;
  non_finite = lane < warps ? block_non_finite[lane] : 0;
  for (int offset = 16; offset > 0; offset >>= 1) {
    max_abs = larger(max_abs, __shfl_down_sync(0xffffffffu, max_abs, offset));
    max_rel = larger(max_rel, __shfl_down_sync(0xffffffffu, max_rel, offset));
    not_close += __shfl_down_sync(0xffffffffu, not_close, offset);
    non_finite += __shfl_down_sync(0xffffffffu, non_finite, offset);
  }
  if (lane != 0) return;
  atomicMax(out + 0, (u64)__double_as_longlong((double)max_abs));
  atomicMax(out + 1, (u64)__double_as_longlong((double)max_rel));
  if (not_close) atomicAdd(out + 2, not_close);
  if (non_finite) atomicAdd(out + 3, non_finite);
}

extern "C" __global__ void __launch_bounds__(256) close_figures_f32(const float* ref, const float* cand, long long n,
    float rtol, float atol, float floor, u64* out) { close_figures<float>(ref, cand, n, rtol, atol, floor, out); }
extern "C" __global__ void __launch_bounds__(256) close_figures_f64(const double* ref, const double* cand, long long n,
    double rtol, double atol, double floor, u64* out) { close_figures<double>(ref, cand, n, rtol, atol, floor, out); }
)";

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;  // enough resident warps to keep HBM busy with plain loads

// NVRTC's C interface, declared here: its header is the toolkit's, its library torch's.
using nvrtcProgram = struct _nvrtcProgram*;
struct Nvrtc {
  int (*create)(nvrtcProgram*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  int (*compile)(nvrtcProgram, int, const char* const*) = nullptr;
  int (*log_size)(nvrtcProgram, size_t*) = nullptr;
  int (*log)(nvrtcProgram, char*) = nullptr;
  int (*cubin_size)(nvrtcProgram, size_t*) = nullptr;
  int (*cubin)(nvrtcProgram, char*) = nullptr;
  int (*destroy)(nvrtcProgram*) = nullptr;
};

struct Driver {
  CUresult (*load)(CUmodule*, const void*) = nullptr;
  CUresult (*function)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**,
                     void**) = nullptr;
};

template <class Fn>
bool find_symbol(void* lib, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  return fn != nullptr;
}

// torch's NVRTC: already loaded, else beside the CUDA runtime torch loaded (a pip install keeps
// them in one folder), else wherever the loader finds it.
void* open_nvrtc() {
  int version = 0;
  if (cudaRuntimeGetVersion(&version) != cudaSuccess) return nullptr;
  const std::string soname = "libnvrtc.so." + std::to_string(version / 1000);
  if (void* lib = dlopen(soname.c_str(), RTLD_NOW | RTLD_NOLOAD)) return lib;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cudaRuntimeGetVersion), &info) && info.dli_fname) {
    std::string dir = info.dli_fname;
    dir = dir.substr(0, dir.find_last_of('/') + 1);
    if (void* lib = dlopen((dir + soname).c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
  }
  return dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
}

struct Kernels {
  CUfunction f32 = nullptr, f64 = nullptr;
  Driver driver;
  int device = -1;  // whose context holds the module: a function of it runs there only
  int blocks = 0;
  std::string unavailable;
};

std::string compile(Kernels& k) {
  void* lib = open_nvrtc();
  if (!lib) return "torch's NVRTC library was not found";
  Nvrtc nv;
  if (!find_symbol(lib, nv.create, "nvrtcCreateProgram") || !find_symbol(lib, nv.compile, "nvrtcCompileProgram") ||
      !find_symbol(lib, nv.log_size, "nvrtcGetProgramLogSize") || !find_symbol(lib, nv.log, "nvrtcGetProgramLog") ||
      !find_symbol(lib, nv.cubin_size, "nvrtcGetCUBINSize") || !find_symbol(lib, nv.cubin, "nvrtcGetCUBIN") ||
      !find_symbol(lib, nv.destroy, "nvrtcDestroyProgram"))
    return "NVRTC lacks a function this needs";
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!cuda || !find_symbol(cuda, k.driver.load, "cuModuleLoadData") ||
      !find_symbol(cuda, k.driver.function, "cuModuleGetFunction") || !find_symbol(cuda, k.driver.launch, "cuLaunchKernel"))
    return "the CUDA driver's module functions were not found";
  int device = 0, major = 0, minor = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
    return "the device's compute capability could not be read";
  k.device = device;
  k.blocks = std::max(1, sms) * kBlocksPerSm;
  const std::string arch = "--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor);
  const char* options[] = {arch.c_str(), "--fmad=false", "--std=c++17"};
  nvrtcProgram program = nullptr;
  if (nv.create(&program, kKernelSource, "kforge_close_figures.cu", 0, nullptr, nullptr) != 0)
    return "nvrtcCreateProgram failed";
  std::string why;
  if (nv.compile(program, 3, options) != 0) {
    size_t size = 0;
    nv.log_size(program, &size);
    std::string log(size, '\0');
    nv.log(program, log.data());
    why = "NVRTC could not compile it for " + arch.substr(arch.find('=') + 1) + ": " + log.substr(0, 300);
  } else {
    size_t size = 0;
    nv.cubin_size(program, &size);
    std::vector<char> cubin(size);
    nv.cubin(program, cubin.data());
    CUmodule module = nullptr;
    if (k.driver.load(&module, cubin.data()) != CUDA_SUCCESS ||
        k.driver.function(&k.f32, module, "close_figures_f32") != CUDA_SUCCESS ||
        k.driver.function(&k.f64, module, "close_figures_f64") != CUDA_SUCCESS)
      why = "its module could not be loaded";
  }
  nv.destroy(&program);
  return why;
}

template <class T>
std::optional<CloseFigures> launch(const Kernels& k, const at::Tensor& r, const at::Tensor& c, double rtol, double atol,
                                   double floor) {
  at::Tensor out = at::zeros({4}, r.options().dtype(at::kLong));
  const T* rp = r.data_ptr<T>();
  const T* cp = c.data_ptr<T>();
  long long n = r.numel();
  T rt = static_cast<T>(rtol), at_ = static_cast<T>(atol), fl = static_cast<T>(floor);
  auto* op = reinterpret_cast<unsigned long long*>(out.data_ptr<int64_t>());
  void* args[] = {&rp, &cp, &n, &rt, &at_, &fl, &op};
  const long long wanted = (n + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(std::clamp<long long>(wanted, 1, k.blocks));
  CUstream stream = reinterpret_cast<CUstream>(c10::cuda::getCurrentCUDAStream().stream());
  if (k.driver.launch(std::is_same_v<T, float> ? k.f32 : k.f64, blocks, 1, 1, kThreads, 1, 1, 0, stream, args, nullptr) !=
      CUDA_SUCCESS)
    return std::nullopt;
  at::Tensor host = out.cpu();  // waits for the kernel on this stream
  const int64_t* v = host.data_ptr<int64_t>();
  CloseFigures f;
  double d = 0;
  std::memcpy(&d, &v[0], sizeof d);
  f.max_abs = d;
  std::memcpy(&d, &v[1], sizeof d);
  f.max_rel = d;
  f.not_close = v[2];
  f.non_finite = v[3];
  return f;
}

std::optional<CloseFigures> run(const Kernels& k, const at::Tensor& r, const at::Tensor& c, double rtol, double atol,
                                double floor) {
  if (r.scalar_type() == at::kFloat) return launch<float>(k, r, c, rtol, atol, floor);
  return launch<double>(k, r, c, rtol, atol, floor);
}

// The same figures in ATen operations, as compare_outputs computes them: what the kernel is
// checked against before it is used.
CloseFigures aten_close_figures(const at::Tensor& r, const at::Tensor& c, double rtol, double atol, double floor) {
  at::Tensor finite = r.isfinite() & c.isfinite();
  at::Tensor diff = (c - r).abs();
  at::Tensor scale = r.abs();
  at::Tensor close = diff <= scale * rtol + atol;
  at::Tensor zero = at::zeros({}, diff.options());
  CloseFigures f;
  f.not_close = (finite & ~close).sum().item<int64_t>();
  f.non_finite = (~finite).sum().item<int64_t>();
  f.max_abs = at::where(finite, diff, zero).max().item<double>();
  f.max_rel = at::where(finite, diff / scale.clamp_min(floor), zero).max().item<double>();
  return f;
}

bool same(const CloseFigures& a, const CloseFigures& b) {
  return a.not_close == b.not_close && a.non_finite == b.non_finite && a.max_abs == b.max_abs && a.max_rel == b.max_rel;
}

// A million pairs (not a multiple of the block; deterministic, drawing nothing from torch's
// generators, which the evaluation seeds), some off by more than the tolerance, some at its edge, a
// NaN and an Inf, a zero reference: every figure must be ATen's exactly.
std::string check(const Kernels& k) {
  for (at::ScalarType type : {at::kFloat, at::kDouble}) {
    auto options = at::TensorOptions().device(at::kCUDA).dtype(type);
    at::Tensor x = at::arange(1000003, options);
    at::Tensor r = at::sin(x * 0.37) * 3;
    at::Tensor c = r + at::cos(x * 1.3) * 1e-5;
    c.narrow(0, 17, 40).mul_(1.01);
    c.narrow(0, 5000, 3).copy_(r.narrow(0, 5000, 3) * (1 + 1e-4) + 1e-4);
    r.narrow(0, 0, 1).fill_(0.0);
    c.narrow(0, 0, 1).fill_(3e-4);
    r.narrow(0, 1, 1).fill_(std::numeric_limits<double>::quiet_NaN());
    c.narrow(0, 2, 1).fill_(std::numeric_limits<double>::infinity());
    for (double atol : {1e-4, 1e-2}) {
      const double floor = std::max(atol, 1e-30);
      std::optional<CloseFigures> fused = run(k, r, c, 1e-4, atol, floor);
      const CloseFigures expected = aten_close_figures(r, c, 1e-4, atol, floor);
      if (!fused) return "its launch failed";
      if (!same(*fused, expected) || expected.not_close == 0) {
        char text[240];
        std::snprintf(text, sizeof text,
                      "its figures differ from ATen's (%s, atol %g): not close %lld against %lld, non-finite %lld "
                      "against %lld, max abs %.9g against %.9g, max rel %.9g against %.9g",
                      type == at::kFloat ? "float32" : "float64", atol, (long long)fused->not_close,
                      (long long)expected.not_close, (long long)fused->non_finite, (long long)expected.non_finite,
                      fused->max_abs, expected.max_abs, fused->max_rel, expected.max_rel);
        return text;
      }
    }
  }
  return "";
}

const Kernels& kernels() {
  static Kernels k;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string why = compile(k);
    if (why.empty()) why = check(k);
    k.unavailable = why;
    if (why.empty())
      std::fprintf(stderr, "kforge worker: fused compare: compiled and checked against ATen\n");
    else
      std::fprintf(stderr, "kforge worker: fused compare unavailable, outputs compared in ATen alone: %s\n", why.c_str());
  });
  return k;
}

}  // namespace

std::optional<CloseFigures> fused_close_figures(const at::Tensor& reference, const at::Tensor& candidate, double rtol,
                                                double atol, double rel_floor) {
  if (!reference.is_cuda() || !candidate.is_cuda() || reference.device() != candidate.device()) return std::nullopt;
  if (reference.scalar_type() != candidate.scalar_type() || reference.sizes() != candidate.sizes()) return std::nullopt;
  if (reference.scalar_type() != at::kFloat && reference.scalar_type() != at::kDouble) return std::nullopt;
  if (!reference.is_contiguous() || !candidate.is_contiguous() || reference.numel() == 0) return std::nullopt;
  const Kernels& k = kernels();
  if (!k.unavailable.empty() || reference.get_device() != k.device) return std::nullopt;
  return run(k, reference, candidate, rtol, atol, rel_floor);
}

#else

std::optional<CloseFigures> fused_close_figures(const at::Tensor&, const at::Tensor&, double, double, double) {
  return std::nullopt;
}

#endif

}  // namespace kforge::worker
