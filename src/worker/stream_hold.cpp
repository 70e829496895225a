#include "worker/stream_hold.hpp"

#include <dlfcn.h>

#if KFORGE_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace kforge::worker {

#if KFORGE_WITH_CUDA
namespace {
constexpr unsigned kWaitGeq = 0x0;  // CU_STREAM_WAIT_VALUE_GEQ: go once the word is >= the value

// The driver's entry point, from the libcuda.so.1 torch already loaded (no link to the driver,
// whose version is the machine's). _v2 is the default since CUDA 11.7; v1 needs a driver option.
void* find_wait_value32() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!driver) return nullptr;
  void* fn = dlsym(driver, "cuStreamWaitValue32_v2");
  if (!fn) fn = dlsym(driver, "cuStreamWaitValue32");
  dlclose(driver);  // torch keeps its own reference
  return fn;
}
}  // namespace

std::unique_ptr<StreamHold> StreamHold::create(std::chrono::milliseconds watchdog, std::string* why_not) {
  std::unique_ptr<StreamHold> hold(new StreamHold);
  hold->watchdog_ = watchdog;
  hold->wait_value_ = reinterpret_cast<WaitValue32>(find_wait_value32());
  if (!hold->wait_value_) {
    *why_not = "the driver has no cuStreamWaitValue32";
    return nullptr;
  }
  void* host = nullptr;
  if (cudaHostAlloc(&host, 64, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError();
    *why_not = "no mapped pinned host memory for the flag";
    return nullptr;
  }
  hold->host_flag_ = static_cast<volatile uint32_t*>(host);
  *hold->host_flag_ = 0;
  void* device = nullptr;
  if (cudaHostGetDevicePointer(&device, host, 0) != cudaSuccess) {
    cudaGetLastError();
    *why_not = "the flag has no device address";
    return nullptr;
  }
  hold->device_flag_ = reinterpret_cast<unsigned long long>(device);
  hold->thread_ = std::thread([h = hold.get()] { h->watch(); });

  // Self-test on a stream of its own: an event queued behind the hold must stay pending while the
  // stream is held and complete once it is released.
  // Both destroyed on every path out (either may have been made when the other failed).
  struct SelfTest {
    cudaStream_t stream = nullptr;
    cudaEvent_t event = nullptr;
    ~SelfTest() {
      if (event) cudaEventDestroy(event);
      if (stream) cudaStreamDestroy(stream);
      cudaGetLastError();
    }
  } test;
  if (cudaStreamCreateWithFlags(&test.stream, cudaStreamNonBlocking) != cudaSuccess ||
      cudaEventCreateWithFlags(&test.event, cudaEventDisableTiming) != cudaSuccess) {
    cudaGetLastError();
    *why_not = "could not create the self-test's stream";
    return nullptr;
  }
  hold->hold(test.stream);
  cudaEventRecord(test.event, test.stream);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const bool pending_while_held = cudaEventQuery(test.event) == cudaErrorNotReady;
  hold->release();
  const bool done_after = cudaEventSynchronize(test.event) == cudaSuccess;
  if (!pending_while_held || !done_after) {
    *why_not = pending_while_held ? "the held stream did not resume" : "the stream ran while held";
    return nullptr;
  }
  return hold;
}

StreamHold::~StreamHold() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (armed_ && host_flag_) set_flag(generation_);
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (host_flag_) cudaFreeHost(const_cast<uint32_t*>(host_flag_));
}

void StreamHold::set_flag(uint32_t value) { __atomic_store_n(host_flag_, value, __ATOMIC_SEQ_CST); }

void StreamHold::hold(void* stream) {
  std::lock_guard lock(mutex_);
  ++generation_;
  fired_ = false;
  if (wait_value_(stream, device_flag_, generation_, kWaitGeq) != 0) {
    set_flag(generation_);  // nothing to wait on; leave the stream free
    return;
  }
  armed_ = true;
  fired_ = false;
  deadline_ = std::chrono::steady_clock::now() + watchdog_;
  wake_.notify_all();
}

bool StreamHold::release() {
  std::lock_guard lock(mutex_);
  if (!armed_) return !fired_;
  set_flag(generation_);
  armed_ = false;
  return true;
}

void StreamHold::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!armed_) {
      wake_.wait(lock);
      continue;
    }
    if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_) {
      set_flag(generation_);  // the forward is waiting on the GPU it holds: let it go
      armed_ = false;
      fired_ = true;
    }
  }
}

#else
std::unique_ptr<StreamHold> StreamHold::create(std::chrono::milliseconds, std::string* why_not) {
  *why_not = "this worker was built without CUDA";
  return nullptr;
}
StreamHold::~StreamHold() = default;
void StreamHold::hold(void*) {}
bool StreamHold::release() { return true; }
void StreamHold::watch() {}
void StreamHold::set_flag(uint32_t) {}
#endif

}  // namespace kforge::worker
