#include "worker/launch_recorder.hpp"
#include "metrics/stream_order.hpp"

#if KFORGE_WITH_CUDA
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <cupti.h>  // with generated_cuda_meta.h: the driver calls' parameters, read below
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <execinfo.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#endif

#include <cxxabi.h>

#include <cstdlib>

namespace kforge::worker {

std::string demangled(const std::string& kernel) {
  int status = 0;
  char* plain = abi::__cxa_demangle(kernel.c_str(), nullptr, nullptr, &status);
  if (!plain) return kernel;
  std::string out = status == 0 ? plain : kernel;
  std::free(plain);
  return out;
}

#if KFORGE_WITH_CUDA
namespace {

// The CUPTI functions kforge calls, resolved in the CUPTI torch loaded.
struct Cupti {
  decltype(&cuptiSubscribe) subscribe = nullptr;
  decltype(&cuptiUnsubscribe) unsubscribe = nullptr;
  decltype(&cuptiEnableDomain) enable_domain = nullptr;
  decltype(&cuptiActivityEnable) activity_enable = nullptr;
  decltype(&cuptiActivityDisable) activity_disable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
  std::string missing;  // why CUPTI cannot be used

  std::string error(CUptiResult rc) const {
    const char* text = nullptr;
    if (result_string) result_string(rc, &text);
    return text ? text : "CUPTI error " + std::to_string(static_cast<int>(rc));
  }
};

const Cupti& cupti() {
  static const Cupti api = [] {
    Cupti c;
    const std::string versioned = "libcupti.so." + std::to_string(CUDART_VERSION / 1000);
    void* lib = ::dlopen(versioned.c_str(), RTLD_NOW | RTLD_NOLOAD);  // torch's copy, already loaded
    if (!lib) lib = ::dlopen(versioned.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!lib) lib = ::dlopen("libcupti.so", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
      c.missing = "CUPTI (" + versioned + ") not found";
      return c;
    }
    auto resolve = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
      if (!fn && c.missing.empty()) c.missing = std::string("CUPTI lacks ") + name;
    };
    resolve(c.subscribe, "cuptiSubscribe");
    resolve(c.unsubscribe, "cuptiUnsubscribe");
    resolve(c.enable_domain, "cuptiEnableDomain");
    resolve(c.activity_enable, "cuptiActivityEnable");
    resolve(c.activity_disable, "cuptiActivityDisable");
    resolve(c.register_callbacks, "cuptiActivityRegisterCallbacks");
    resolve(c.flush_all, "cuptiActivityFlushAll");
    resolve(c.next_record, "cuptiActivityGetNextRecord");
    resolve(c.result_string, "cuptiGetResultString");
    return c;
  }();
  return api;
}

// A launch API call seen by the callback, keyed by its correlation id (which the kernels it
// started carry in their activity records).
struct LaunchCall {
  std::string object;
  bool after_return = false;
  bool other_thread = false;
};

struct KernelRecord {
  uint32_t correlation = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint32_t stream = 0;
  std::string name;
  census::LaunchShape shape;
};

// What one recording gathers. Callbacks come from any thread, activity buffers from CUPTI's own.
struct Gathered {
  std::mutex mutex;
  std::unordered_map<uint32_t, LaunchCall> calls;
  std::vector<KernelRecord> kernels;
  std::atomic<bool> returned{false};
  std::vector<census::StreamOp> ops;              // the forward's stream operations, in issue order
  std::unordered_map<uint64_t, bool> blocking;     // per stream seen: created without cudaStreamNonBlocking
  bool unreadable_flags = false;                   // a stream whose flags could not be read
  pid_t caller = 0;
};

std::mutex g_mutex;          // guards g_gathered against the activity thread
Gathered* g_gathered = nullptr;
thread_local int t_runtime_depth = 0;  // inside a runtime-API launch on this thread
thread_local std::string t_runtime_object;
thread_local uint32_t t_runtime_correlation = 0;  // the runtime launch in progress on this thread

pid_t this_thread() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

std::string object_of(const void* address) {
  Dl_info info{};
  if (::dladdr(address, &info) && info.dli_fname) return info.dli_fname;
  return {};
}

const std::string& own_module() {  // this worker module: its frames are kforge's, not a caller's
  static const std::string path = object_of(reinterpret_cast<const void*>(&this_thread));
  return path;
}

// KFORGE_WORKER_CENSUS_TRACE=1 writes every launch callback and stack walk to the worker log.
bool tracing() {
  static const bool on = [] {
    const char* v = std::getenv("KFORGE_WORKER_CENSUS_TRACE");
    return v && *v && *v != '0';
  }();
  return on;
}

// Objects whose frames are not a launch's origin: the CUDA driver, runtime and CUPTI, this
// module, and the C and C++ runtimes.
bool passed_over(const std::string& path) {
  if (path.empty() || path == own_module()) return true;
  auto slash = path.rfind('/');
  std::string_view file = std::string_view(path).substr(slash == std::string::npos ? 0 : slash + 1);
  for (std::string_view skip : {"libcuda.so", "libcudart", "libcupti", "libc.so", "libstdc++", "libgcc_s", "ld-linux",
                                "libpthread", "libm.so", "libdl.so"})
    if (file.starts_with(skip)) return true;
  return false;
}

// The executable segments of every loaded object, sorted, for telling return addresses on the
// stack from other words. Rebuilt when a recording starts (a candidate may have loaded objects).
struct CodeSegment {
  uintptr_t lo, hi;
  std::string path;
};
std::vector<CodeSegment> g_code;

void map_code_segments() {
  g_code.clear();
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void*) {
        std::string path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "";
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
            g_code.push_back({info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz, path});
        }
        return 0;
      },
      nullptr);
  std::sort(g_code.begin(), g_code.end(), [](const CodeSegment& a, const CodeSegment& b) { return a.lo < b.lo; });
}

const CodeSegment* code_at(uintptr_t address) {
  auto it = std::upper_bound(g_code.begin(), g_code.end(), address,
                             [](uintptr_t a, const CodeSegment& s) { return a < s.lo; });
  if (it == g_code.begin()) return nullptr;
  --it;
  return address < it->hi ? &*it : nullptr;
}

// The nearest word on this thread's stack that points into the code of an object not passed
// over: the return address into the code that called the driver. Used where the unwinder cannot
// walk through the driver's frames, as for launches by a CUDA runtime linked statically into a
// library (PyTorch's own kernels).
std::string caller_from_stack_words() {
  thread_local uintptr_t stack_top = [] {
    pthread_attr_t attr;
    void* base = nullptr;
    size_t size = 0;
    if (::pthread_getattr_np(::pthread_self(), &attr) != 0) return uintptr_t{0};
    ::pthread_attr_getstack(&attr, &base, &size);
    ::pthread_attr_destroy(&attr);
    return reinterpret_cast<uintptr_t>(base) + size;
  }();
  volatile uintptr_t here = 0;
  auto word = reinterpret_cast<uintptr_t>(&here) & ~uintptr_t{7};
  const uintptr_t end = stack_top ? std::min(stack_top, word + (uintptr_t{256} << 10)) : word;
  for (; word + sizeof(uintptr_t) <= end; word += sizeof(uintptr_t)) {
    const CodeSegment* seg = code_at(*reinterpret_cast<const uintptr_t*>(word));
    if (seg && !passed_over(seg->path)) return seg->path;
  }
  return {};
}

// The object of the first caller outside the CUDA driver, runtime and CUPTI (and this module):
// the code that asked for the launch. The unwinder first; the stack's words where it stops early.
std::string first_caller_outside_cuda() {
  void* frames[64];
  const int n = ::backtrace(frames, 64);
  if (tracing()) {
    std::fprintf(stderr, "kforge census: stack of %d frames:", n);
    for (int i = 0; i < n; ++i) std::fprintf(stderr, " %s", object_of(frames[i]).c_str());
    std::fprintf(stderr, "\n");
  }
  for (int i = 0; i < n; ++i) {
    std::string path = object_of(frames[i]);
    if (!passed_over(path)) return path;
  }
  std::string scanned = caller_from_stack_words();
  if (tracing()) std::fprintf(stderr, "kforge census: unwinding stopped; stack words name %s\n", scanned.c_str());
  return scanned;
}

// For a runtime-API kernel launch, the kernel's host stub (whose object defines the kernel);
// `launch` says whether the call launches work at all.
const void* runtime_launch_stub(CUpti_CallbackId cbid, const void* params, bool* launch) {
  *launch = true;
  switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
      return static_cast<const cudaLaunchKernel_v7000_params*>(params)->func;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
      return static_cast<const cudaLaunchKernel_ptsz_v7000_params*>(params)->func;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
      return static_cast<const cudaLaunchKernelExC_v11060_params*>(params)->func;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
      return static_cast<const cudaLaunchKernelExC_ptsz_v11060_params*>(params)->func;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
      return static_cast<const cudaLaunchCooperativeKernel_v9000_params*>(params)->func;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
      return static_cast<const cudaLaunchCooperativeKernel_ptsz_v9000_params*>(params)->func;
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
      return nullptr;  // a graph: its launcher is found on the stack
    default:
      *launch = false;
      return nullptr;
  }
}

bool driver_launch(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
      return true;
    default:
      return false;
  }
}

void note_call(Gathered* g, uint32_t correlation, std::string object) {
  if (tracing()) std::fprintf(stderr, "kforge census: launch %u from %s\n", correlation, object.c_str());
  LaunchCall call{std::move(object), g->returned.load(), this_thread() != g->caller};
  std::lock_guard lock(g->mutex);
  g->calls[correlation] = std::move(call);
}

// A stream as the order model names it: CU_STREAM_LEGACY is the legacy stream (0); a thread's
// per-thread default stream (0 in a _ptsz call, or CU_STREAM_PER_THREAD) gets a name of its own.
uint64_t stream_name(CUstream stream, bool per_thread_call) {
  const auto v = reinterpret_cast<uint64_t>(stream);
  if (v == 0x1) return census::kLegacyStream;
  if ((v == 0 && per_thread_call) || v == 0x2) return 0x2 | (static_cast<uint64_t>(this_thread()) << 8);
  return v;
}

// The driver's cuStreamGetFlags, from libcuda itself: the CUDA runtime loads libcuda with
// RTLD_LOCAL, so a global lookup finds nothing (the first version looked there, read every stream
// as blocking, and passed both side-stream hacks on the H200).
using StreamGetFlags = int (*)(CUstream, unsigned int*);
StreamGetFlags stream_get_flags() {
  static const auto fn = [] {
    void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);  // the copy the runtime loaded
    auto f = lib ? reinterpret_cast<StreamGetFlags>(::dlsym(lib, "cuStreamGetFlags")) : nullptr;
    return f ? f : reinterpret_cast<StreamGetFlags>(::dlsym(RTLD_DEFAULT, "cuStreamGetFlags"));
  }();
  return fn;
}

// What a driver call does to the order of streams, if anything.
std::optional<census::StreamOp> stream_op(CUpti_CallbackId cbid, const void* params, uint32_t launch_id) {
  using K = census::StreamOp::Kind;
  auto launch = [&](CUstream s, bool ptsz) { return census::StreamOp{K::launch, stream_name(s, ptsz), 0, launch_id}; };
  auto event = [](CUevent e) { return reinterpret_cast<uint64_t>(e); };
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: return launch(static_cast<const cuLaunchKernel_params*>(params)->hStream, false);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: return launch(static_cast<const cuLaunchKernel_ptsz_params*>(params)->hStream, true);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
      const CUlaunchConfig* c = static_cast<const cuLaunchKernelEx_params*>(params)->config;
      return launch(c ? c->hStream : nullptr, false);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const CUlaunchConfig* c = static_cast<const cuLaunchKernelEx_ptsz_params*>(params)->config;
      return launch(c ? c->hStream : nullptr, true);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      return launch(static_cast<const cuLaunchCooperativeKernel_params*>(params)->hStream, false);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return launch(static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params)->hStream, true);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync: return launch(static_cast<const cuLaunchGridAsync_params*>(params)->hStream, false);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid: return launch(nullptr, false);
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch: return launch(static_cast<const cuGraphLaunch_params*>(params)->hStream, false);
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: return launch(static_cast<const cuGraphLaunch_ptsz_params*>(params)->hStream, true);
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecord: {
      auto p = static_cast<const cuEventRecord_params*>(params);
      return census::StreamOp{K::record, stream_name(p->hStream, false), event(p->hEvent), 0};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz: {
      auto p = static_cast<const cuEventRecord_ptsz_params*>(params);
      return census::StreamOp{K::record, stream_name(p->hStream, true), event(p->hEvent), 0};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags: {
      auto p = static_cast<const cuEventRecordWithFlags_params*>(params);
      return census::StreamOp{K::record, stream_name(p->hStream, false), event(p->hEvent), 0};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz: {
      auto p = static_cast<const cuEventRecordWithFlags_ptsz_params*>(params);
      return census::StreamOp{K::record, stream_name(p->hStream, true), event(p->hEvent), 0};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent: {
      auto p = static_cast<const cuStreamWaitEvent_params*>(params);
      return census::StreamOp{K::wait, stream_name(p->hStream, false), event(p->hEvent), 0};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz: {
      auto p = static_cast<const cuStreamWaitEvent_ptsz_params*>(params);
      return census::StreamOp{K::wait, stream_name(p->hStream, true), event(p->hEvent), 0};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize:
      return census::StreamOp{K::sync_stream, stream_name(static_cast<const cuStreamSynchronize_params*>(params)->hStream, false), 0, 0};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz:
      return census::StreamOp{K::sync_stream, stream_name(static_cast<const cuStreamSynchronize_ptsz_params*>(params)->hStream, true), 0, 0};
    case CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize:
      return census::StreamOp{K::sync_event, 0, event(static_cast<const cuEventSynchronize_params*>(params)->hEvent), 0};
    case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize:
#ifdef CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2
    case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2:
#endif
      return census::StreamOp{K::sync_device, 0, 0, 0};
    default:
      return std::nullopt;
  }
}

// Records a driver call's stream operation while the forward runs, with the stream's flags the
// first time it is seen (the stream may be gone by the time the recording ends).
void note_stream_op(Gathered* g, CUpti_CallbackId cbid, const void* params, uint32_t launch_id) {
  if (g->returned.load()) return;  // kforge's own work after the forward
  auto op = stream_op(cbid, params, launch_id);
  if (!op) return;
  std::lock_guard lock(g->mutex);
  if (op->kind != census::StreamOp::Kind::sync_event && op->kind != census::StreamOp::Kind::sync_device &&
      !g->blocking.count(op->stream)) {
    bool blocking = true;  // the legacy and per-thread streams
    const uint64_t v = op->stream;
    if (v != census::kLegacyStream && (v & 0xff) != 0x2) {
      unsigned int flags = 0;
      auto get = stream_get_flags();
      if (get && get(reinterpret_cast<CUstream>(v), &flags) == 0)
        blocking = (flags & CU_STREAM_NON_BLOCKING) == 0;
      else
        g->unreadable_flags = true;  // the order cannot be judged: said so, never a silent pass
    }
    g->blocking[v] = blocking;
  }
  g->ops.push_back(*op);
}

void CUPTIAPI on_api_call(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* raw) {
  auto* g = static_cast<Gathered*>(userdata);
  const auto* data = static_cast<const CUpti_CallbackData*>(raw);
  if (tracing() && (domain == CUPTI_CB_DOMAIN_RUNTIME_API || driver_launch(cbid)))
    std::fprintf(stderr, "kforge census: %s %s (cbid %u) %s correlation %u depth %d\n",
                 domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver",
                 data->functionName ? data->functionName : "?", static_cast<unsigned>(cbid),
                 data->callbackSite == CUPTI_API_ENTER ? "enter" : "exit", data->correlationId, t_runtime_depth);
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    bool launch = false;
    const void* stub = runtime_launch_stub(cbid, data->functionParams, &launch);
    if (!launch) return;
    if (data->callbackSite == CUPTI_API_ENTER) {
      // The stub names the kernel's object when it is a host function; a launch by handle
      // (cudaKernel_t, or a stub dladdr cannot place) is attributed to its caller instead.
      t_runtime_object = stub ? object_of(stub) : std::string();
      if (t_runtime_object.empty()) t_runtime_object = first_caller_outside_cuda();
      ++t_runtime_depth;
      t_runtime_correlation = data->correlationId;
      note_call(g, data->correlationId, t_runtime_object);
    } else if (t_runtime_depth > 0) {
      --t_runtime_depth;
    }
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && data->callbackSite == CUPTI_API_ENTER) {
    // A driver launch inside a runtime launch is the same launch, already attributed.
    if (driver_launch(cbid))
      note_call(g, data->correlationId, t_runtime_depth > 0 ? t_runtime_object : first_caller_outside_cuda());
    // The kernel's activity record carries the runtime call's correlation id when there is one.
    note_stream_op(g, cbid, data->functionParams, t_runtime_depth > 0 ? t_runtime_correlation : data->correlationId);
  }
}

constexpr size_t kActivityBufferBytes = 4u << 20;

void CUPTIAPI on_buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kActivityBufferBytes));
  *size = *buffer ? kActivityBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI on_buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::vector<KernelRecord> kernels;
  CUpti_Activity* record = nullptr;
  while (cupti().next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    census::LaunchShape shape;
    shape.grid_x = k->gridX, shape.grid_y = k->gridY, shape.grid_z = k->gridZ;
    shape.block_x = k->blockX, shape.block_y = k->blockY, shape.block_z = k->blockZ;
    shape.registers_per_thread = k->registersPerThread;
    shape.static_shared_bytes = k->staticSharedMemory;
    shape.dynamic_shared_bytes = k->dynamicSharedMemory;
    shape.local_bytes_per_thread = k->localMemoryPerThread;
    kernels.push_back({k->correlationId, k->start, k->end, k->streamId, k->name ? k->name : "", shape});
  }
  std::free(buffer);
  std::lock_guard lock(g_mutex);
  if (!g_gathered) return;
  std::lock_guard inner(g_gathered->mutex);
  for (auto& k : kernels) g_gathered->kernels.push_back(std::move(k));
}

// The device's SM, as the occupancy rules need it (the defaults where a figure is missing). Read
// once: a candidate's process keeps its one device.
census::SmLimits read_sm_limits() {
  census::SmLimits sm;
  int device = 0;
  cudaDeviceProp p{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&p, device) != cudaSuccess) return sm;
  sm.sm_count = p.multiProcessorCount;
  if (p.warpSize > 0) sm.max_warps = p.maxThreadsPerMultiProcessor / p.warpSize;
  if (p.maxBlocksPerMultiProcessor > 0) sm.max_blocks = p.maxBlocksPerMultiProcessor;
  if (p.regsPerMultiprocessor > 0) sm.registers = p.regsPerMultiprocessor;
  if (p.sharedMemPerMultiprocessor > 0) sm.shared_bytes = static_cast<int64_t>(p.sharedMemPerMultiprocessor);
  sm.reserved_shared_per_block = static_cast<int64_t>(p.reservedSharedMemPerBlock);
  return sm;
}

const census::SmLimits& sm_limits() {
  static const census::SmLimits sm = read_sm_limits();
  return sm;
}

std::string file_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

struct LaunchRecorder::State {
  Gathered gathered;
  uint64_t caller_stream = 0;  // the caller's current stream when forward returned
  CUpti_SubscriberHandle subscriber = nullptr;
  bool active = false;
  std::string unavailable;
};

LaunchRecorder::LaunchRecorder() : state_(std::make_unique<State>()) {}

LaunchRecorder::~LaunchRecorder() {
  if (state_->active) stop();
}

void LaunchRecorder::start() {
  const Cupti& api = cupti();
  if (!api.missing.empty()) {
    state_->unavailable = api.missing;
    return;
  }
  static const CUptiResult registered = api.register_callbacks(on_buffer_requested, on_buffer_completed);
  if (registered != CUPTI_SUCCESS) {
    state_->unavailable = "cuptiActivityRegisterCallbacks: " + api.error(registered);
    return;
  }
  c10::cuda::device_synchronize();  // work launched before now is not the forward's
  map_code_segments();
  Gathered& g = state_->gathered;
  g.caller = this_thread();
  g.returned = false;
  if (CUptiResult rc = api.subscribe(&state_->subscriber, on_api_call, &g); rc != CUPTI_SUCCESS) {
    state_->unavailable = "cuptiSubscribe: " + api.error(rc);
    return;
  }
  {
    std::lock_guard lock(g_mutex);
    g_gathered = &g;
  }
  api.enable_domain(1, state_->subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  api.enable_domain(1, state_->subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  if (CUptiResult rc = api.activity_enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); rc != CUPTI_SUCCESS)
    state_->unavailable = "cuptiActivityEnable: " + api.error(rc);
  state_->active = true;
}

void LaunchRecorder::forward_returned() {
  state_->gathered.returned = true;
  state_->caller_stream = reinterpret_cast<uint64_t>(c10::cuda::getCurrentCUDAStream().stream());
  if (state_->caller_stream == 0x1) state_->caller_stream = census::kLegacyStream;
}

RecordedForward LaunchRecorder::stop() {
  RecordedForward out;
  if (!state_->active) {
    out.unavailable = state_->unavailable.empty() ? "not started" : state_->unavailable;
    return out;
  }
  const Cupti& api = cupti();
  try {  // after a CUDA error (the forward's own) this throws; the recording still ends
    c10::cuda::device_synchronize();
  } catch (const std::exception&) {
  }
  api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  api.activity_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  api.unsubscribe(state_->subscriber);
  state_->active = false;
  {
    std::lock_guard lock(g_mutex);
    g_gathered = nullptr;
  }
  if (!state_->unavailable.empty()) {
    out.unavailable = state_->unavailable;
    return out;
  }
  Gathered& g = state_->gathered;
  out.recorded = true;
  out.sm = sm_limits();
  // Which of the forward's launches its caller's stream is not ordered after (metrics/stream_order.hpp).
  std::unordered_set<uint32_t> unjoined_ids;
  if (g.unreadable_flags)
    out.order_unavailable = stream_get_flags() ? "a stream's flags could not be read"
                                               : "cuStreamGetFlags not found in libcuda";
  else
    for (uint32_t id : census::unjoined_launches(g.ops, state_->caller_stream, [&](uint64_t stream) {
         auto it = g.blocking.find(stream);
         return it == g.blocking.end() || it->second;
       }))
    unjoined_ids.insert(id);
  if (tracing()) {
    std::fprintf(stderr, "kforge census: %zu stream operations during forward; caller's stream %llx\n", g.ops.size(),
                 static_cast<unsigned long long>(state_->caller_stream));
    for (const auto& op : g.ops)
      std::fprintf(stderr, "kforge census:   op %d stream %llx event %llx launch %u%s\n", static_cast<int>(op.kind),
                   static_cast<unsigned long long>(op.stream), static_cast<unsigned long long>(op.event), op.launch_id,
                   unjoined_ids.count(op.launch_id) && op.kind == census::StreamOp::Kind::launch ? " (unjoined)" : "");
    for (const auto& [stream, blocking] : g.blocking)
      std::fprintf(stderr, "kforge census:   stream %llx %s\n", static_cast<unsigned long long>(stream),
                   blocking ? "blocking" : "non-blocking");
    if (!out.order_unavailable.empty()) std::fprintf(stderr, "kforge census:   order not checked: %s\n", out.order_unavailable.c_str());
  }
  for (const auto& k : g.kernels) {
    auto call = g.calls.find(k.correlation);
    if (call == g.calls.end()) continue;  // launched before recording began
    census::Launch launch{k.name, file_name(call->second.object), census::classify(call->second.object, k.name),
                          (k.end_ns - k.start_ns) / 1e6, k.shape};
    if (!call->second.after_return) {
      if (unjoined_ids.count(k.correlation)) out.unjoined.push_back({launch, k.stream});
      out.during.push_back(std::move(launch));
    }
    else if (call->second.other_thread)
      out.late_from_other_threads.push_back(std::move(launch));
  }
  return out;
}

#else  // a CPU-only torch: no kernels to record

struct LaunchRecorder::State {};
LaunchRecorder::LaunchRecorder() : state_(std::make_unique<State>()) {}
LaunchRecorder::~LaunchRecorder() = default;
void LaunchRecorder::start() {}
void LaunchRecorder::forward_returned() {}
RecordedForward LaunchRecorder::stop() {
  RecordedForward out;
  out.unavailable = "this torch has no CUDA";
  return out;
}

#endif

}  // namespace kforge::worker
