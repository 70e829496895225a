#include "worker/exchange_arena.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "common/environment_says.hpp"

#if KFORGE_WITH_CUDA
#include <cuda.h>  // the driver's types only: its functions are looked up at run time (VmmDriver)
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#endif

namespace kforge::worker {
namespace {

// The dtypes a forward's arguments and results may have, by the names that travel in JSON.
constexpr at::ScalarType kDtypes[] = {
    at::kFloat, at::kDouble, at::kHalf,  at::kBFloat16, at::kInt,          at::kLong,
    at::kShort, at::kChar,   at::kByte,  at::kBool,     at::kComplexFloat, at::kComplexDouble,
    at::ScalarType::Float8_e4m3fn, at::ScalarType::Float8_e5m2,
};

std::optional<at::ScalarType> dtype_named(const std::string& name) {
  for (auto t : kDtypes)
    if (name == c10::toString(t)) return t;
  return std::nullopt;
}

std::string hex_of(const void* data, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    auto byte = static_cast<const unsigned char*>(data)[i];
    out += digits[byte >> 4];
    out += digits[byte & 15];
  }
  return out;
}

bool bytes_of_hex(const std::string& hex, void* out, size_t n) {
  if (hex.size() != 2 * n) return false;
  auto value = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (size_t i = 0; i < n; ++i) {
    int hi = value(hex[2 * i]), lo = value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    static_cast<unsigned char*>(out)[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  return true;
}

#if KFORGE_WITH_CUDA
void check_cuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clears a non-sticky error so later calls do not report it again
  throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

// The driver's virtual-memory functions, found in the libcuda.so.1 torch loaded (kforge does not
// link the driver, as worker/stream_hold.cpp does not).
struct VmmDriver {
  CUresult (*granularity)(size_t*, const CUmemAllocationProp*, CUmemAllocationGranularity_flags) = nullptr;
  CUresult (*create)(CUmemGenericAllocationHandle*, size_t, const CUmemAllocationProp*, unsigned long long) = nullptr;
  CUresult (*release)(CUmemGenericAllocationHandle) = nullptr;
  CUresult (*reserve)(CUdeviceptr*, size_t, size_t, CUdeviceptr, unsigned long long) = nullptr;
  CUresult (*free_address)(CUdeviceptr, size_t) = nullptr;
  CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long) = nullptr;
  CUresult (*unmap)(CUdeviceptr, size_t) = nullptr;
  CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t) = nullptr;
  CUresult (*export_handle)(void*, CUmemGenericAllocationHandle, CUmemAllocationHandleType, unsigned long long) = nullptr;
  CUresult (*import_handle)(CUmemGenericAllocationHandle*, void*, CUmemAllocationHandleType) = nullptr;

  static const VmmDriver& get() {
    static const VmmDriver driver = [] {
      VmmDriver d;
      void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
      if (!lib) throw std::runtime_error("the CUDA driver is not loaded");
      auto find = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
        if (!fn) throw std::runtime_error(std::string("the CUDA driver has no ") + name);
      };
      find(d.granularity, "cuMemGetAllocationGranularity");
      find(d.create, "cuMemCreate");
      find(d.release, "cuMemRelease");
      find(d.reserve, "cuMemAddressReserve");
      find(d.free_address, "cuMemAddressFree");
      find(d.map, "cuMemMap");
      find(d.unmap, "cuMemUnmap");
      find(d.set_access, "cuMemSetAccess");
      find(d.export_handle, "cuMemExportToShareableHandle");
      find(d.import_handle, "cuMemImportFromShareableHandle");
      dlclose(lib);  // torch keeps its own reference
      return d;
    }();
    return driver;
  }
};

void check_driver(CUresult status, const char* what) {
  if (status != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + ": CUDA driver error " + std::to_string(status));
}

int current_device() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "the current CUDA device");
  return device;
}

CUmemAllocationProp allocation_properties(int device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return prop;
}
#endif

// The CUDA arena is a VMM allocation (exchange_arena.hpp) unless KFORGE_WORKER_ARENA=ipc asks
// for the legacy IPC one.
bool vmm_wanted() {
  return !environment_says("KFORGE_WORKER_ARENA", "ipc");
}

}  // namespace

// One physical allocation mapped at `address` for `size` bytes (the allocation granularity's
// multiple) with read and write access for this process's device.
struct ExchangeArena::VmmMapping {
#if KFORGE_WITH_CUDA
  CUmemGenericAllocationHandle handle = 0;
  CUdeviceptr address = 0;
  size_t size = 0;
  bool mapped = false;

  // Maps the allocation `handle` (this object releases it) of `size` bytes.
  void map(CUmemGenericAllocationHandle h, size_t bytes, int device) {
    const VmmDriver& d = VmmDriver::get();
    handle = h;
    size = bytes;
    check_driver(d.reserve(&address, size, 0, 0, 0), "reserving the exchange arena's addresses");
    check_driver(d.map(address, size, 0, handle, 0), "mapping the exchange arena");
    mapped = true;
    CUmemAccessDesc access{};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = device;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    check_driver(d.set_access(address, size, &access, 1), "opening the exchange arena to this device");
  }

  ~VmmMapping() {
    const VmmDriver& d = VmmDriver::get();
    if (mapped) d.unmap(address, size);
    if (address) d.free_address(address, size);
    if (handle) d.release(handle);
  }
#endif
};

int64_t aligned(int64_t bytes) { return (bytes + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment; }

int64_t TensorSlot::nbytes() const {
  int64_t n = static_cast<int64_t>(c10::elementSize(dtype));
  for (int64_t d : shape) n *= d;
  return n;
}

nlohmann::json TensorSlot::to_json() const {
  return {{"offset", offset}, {"dtype", c10::toString(dtype)}, {"shape", shape}};
}

std::optional<TensorSlot> TensorSlot::from_json(const nlohmann::json& j, std::string* why) {
  auto fail = [&](std::string text) -> std::optional<TensorSlot> {
    if (why) *why = std::move(text);
    return std::nullopt;
  };
  if (!j.is_object() || !j.contains("offset") || !j.contains("dtype") || !j.contains("shape"))
    return fail("a tensor description needs offset, dtype and shape");
  if (!j["offset"].is_number_integer() || !j["dtype"].is_string() || !j["shape"].is_array())
    return fail("a tensor description has fields of the wrong type");
  TensorSlot slot;
  slot.offset = j["offset"].get<int64_t>();
  auto dtype = dtype_named(j["dtype"].get<std::string>());
  if (!dtype) return fail("unknown dtype " + j["dtype"].get<std::string>());
  slot.dtype = *dtype;
  if (j["shape"].size() > 16) return fail("more than 16 dimensions");
  int64_t elements = 1;
  for (const auto& d : j["shape"]) {
    if (!d.is_number_integer() || d.get<int64_t>() < 0) return fail("a negative or non-integer extent");
    int64_t extent = d.get<int64_t>();
    if (extent > 0 && elements > std::numeric_limits<int64_t>::max() / 16 / extent) return fail("too many elements");
    elements *= extent;
    slot.shape.push_back(extent);
  }
  return slot;
}

std::unique_ptr<ExchangeArena> ExchangeArena::create(int64_t bytes, bool cuda) {
  std::unique_ptr<ExchangeArena> arena(new ExchangeArena());
  arena->bytes_ = aligned(std::max<int64_t>(bytes, kSlotAlignment));
  arena->cuda_ = cuda;
  arena->owner_ = true;
  if (cuda) {
#if KFORGE_WITH_CUDA
    if (vmm_wanted()) {
      try {
        const VmmDriver& d = VmmDriver::get();
        const int device = current_device();
        const CUmemAllocationProp prop = allocation_properties(device);
        size_t granularity = 0;
        check_driver(d.granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED), "the allocation granularity");
        arena->bytes_ = (arena->bytes_ + static_cast<int64_t>(granularity) - 1) / static_cast<int64_t>(granularity) *
                        static_cast<int64_t>(granularity);
        CUmemGenericAllocationHandle handle = 0;
        check_driver(d.create(&handle, static_cast<size_t>(arena->bytes_), &prop, 0), "allocating the exchange arena");
        arena->vmm_ = std::make_unique<VmmMapping>();
        arena->vmm_->map(handle, static_cast<size_t>(arena->bytes_), device);
        arena->base_ = reinterpret_cast<void*>(arena->vmm_->address);
        int fd = -1;
        check_driver(d.export_handle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), "exporting the exchange arena");
        arena->fd_ = fd;
        return arena;
      } catch (const std::exception& e) {
        // A driver or device that cannot make or export one gets the legacy IPC arena, said once.
        static bool said = false;
        if (!said) std::fprintf(stderr, "kforge worker: exchange arena: %s; a legacy CUDA IPC arena instead\n", e.what());
        said = true;
        arena->vmm_.reset();
        arena->base_ = nullptr;
        arena->bytes_ = aligned(std::max<int64_t>(bytes, kSlotAlignment));
      }
    }
    check_cuda(cudaMalloc(&arena->base_, static_cast<size_t>(arena->bytes_)), "allocating the exchange arena");
#else
    throw std::runtime_error("this worker was built without CUDA");
#endif
    return arena;
  }
  arena->fd_ = ::memfd_create("kforge-exchange", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (arena->fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  if (::ftruncate(arena->fd_, arena->bytes_) != 0)
    throw std::runtime_error(std::string("sizing the exchange arena: ") + std::strerror(errno));
  // Its size sealed before any process shares it: the candidate's holds the descriptor, and a
  // memfd truncated under the reference process's mapping killed that process with SIGBUS at its
  // next read of the outputs, twice, so the candidate got no verdict at all (red-team, session 35:
  // tests/adversarial/escape_truncate_exchange_arena.py).
  if (::fcntl(arena->fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
    throw std::runtime_error(std::string("sealing the exchange arena's size: ") + std::strerror(errno));
  void* base = ::mmap(nullptr, static_cast<size_t>(arena->bytes_), PROT_READ | PROT_WRITE, MAP_SHARED, arena->fd_, 0);
  if (base == MAP_FAILED) throw std::runtime_error(std::string("mapping the exchange arena: ") + std::strerror(errno));
  arena->base_ = base;
  return arena;
}

std::unique_ptr<ExchangeArena> ExchangeArena::open(const nlohmann::json& description, int fd, bool cuda) {
  std::unique_ptr<ExchangeArena> arena(new ExchangeArena());
  arena->bytes_ = description.at("bytes").get<int64_t>();
  arena->cuda_ = cuda;
  if (cuda) {
#if KFORGE_WITH_CUDA
    if (description.value("vmm", false)) {
      if (fd < 0) throw std::runtime_error("no exchange arena descriptor arrived");
      const VmmDriver& d = VmmDriver::get();
      CUmemGenericAllocationHandle handle = 0;
      const CUresult imported =
          d.import_handle(&handle, reinterpret_cast<void*>(static_cast<uintptr_t>(fd)), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
      ::close(fd);  // the handle holds the allocation now
      check_driver(imported, "importing the exchange arena");
      arena->vmm_ = std::make_unique<VmmMapping>();
      arena->vmm_->map(handle, static_cast<size_t>(arena->bytes_), current_device());
      arena->base_ = reinterpret_cast<void*>(arena->vmm_->address);
      return arena;
    }
    cudaIpcMemHandle_t handle;
    if (!bytes_of_hex(description.at("ipc").get<std::string>(), &handle, sizeof handle))
      throw std::runtime_error("a malformed CUDA IPC handle");
    check_cuda(cudaIpcOpenMemHandle(&arena->base_, handle, cudaIpcMemLazyEnablePeerAccess),
               "opening the exchange arena");
#else
    throw std::runtime_error("this worker was built without CUDA");
#endif
    return arena;
  }
  arena->fd_ = fd;
  void* base = ::mmap(nullptr, static_cast<size_t>(arena->bytes_), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) throw std::runtime_error(std::string("mapping the exchange arena: ") + std::strerror(errno));
  arena->base_ = base;
  return arena;
}

bool ExchangeArena::sends_fd(const nlohmann::json& description, bool cuda) {
  return !cuda || description.value("vmm", false);
}

ExchangeArena::~ExchangeArena() {
  if (cuda_) {
#if KFORGE_WITH_CUDA
    if (vmm_) {
      vmm_.reset();
      if (fd_ >= 0) ::close(fd_);
      cudaGetLastError();
      return;
    }
    if (base_) {
      if (owner_) cudaFree(base_);
      else cudaIpcCloseMemHandle(base_);
      cudaGetLastError();
    }
#endif
    return;
  }
  if (base_) ::munmap(base_, static_cast<size_t>(bytes_));
  if (fd_ >= 0) ::close(fd_);
}

nlohmann::json ExchangeArena::description() const {
  nlohmann::json j = {{"bytes", bytes_}};
#if KFORGE_WITH_CUDA
  if (cuda_ && vmm_) {
    j["vmm"] = true;  // the allocation's descriptor follows the frame
  } else if (cuda_) {
    cudaIpcMemHandle_t handle;
    check_cuda(cudaIpcGetMemHandle(&handle, base_), "exporting the exchange arena");
    j["ipc"] = hex_of(&handle, sizeof handle);
  }
#endif
  return j;
}

bool ExchangeArena::contains(const TensorSlot& slot, std::string* why) const {
  auto fail = [&](const std::string& text) {
    if (why) *why = text;
    return false;
  };
  if (slot.offset < 0 || slot.offset % static_cast<int64_t>(c10::elementSize(slot.dtype)) != 0)
    return fail("offset " + std::to_string(slot.offset) + " is negative or misaligned");
  if (slot.offset > bytes_ || slot.nbytes() > bytes_ - slot.offset)
    return fail("bytes " + std::to_string(slot.offset) + "+" + std::to_string(slot.nbytes()) + " leave the " +
                std::to_string(bytes_) + "-byte exchange arena");
  return true;
}

at::Tensor ExchangeArena::view(const TensorSlot& slot) const {
  std::string why;
  if (!contains(slot, &why)) throw std::runtime_error(why);
  auto options = at::TensorOptions().dtype(slot.dtype).device(cuda_ ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU));
  return at::from_blob(static_cast<char*>(base_) + slot.offset, slot.shape, options);
}

namespace {

// One byte of payload with room for one descriptor beside it: what receive_fd takes in.
struct FdMessage {
  char byte = 'f';
  iovec io{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  FdMessage() {
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
  FdMessage(const FdMessage&) = delete;  // msg points into it
  FdMessage& operator=(const FdMessage&) = delete;
};

}  // namespace

bool send_fds(int socket, const std::vector<int>& fds, char byte) {
  if (fds.empty() || fds.size() > 3) return false;
  alignas(cmsghdr) char control[CMSG_SPACE(3 * sizeof(int))] = {};
  iovec io{&byte, 1};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = CMSG_SPACE(fds.size() * sizeof(int));
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(fds.size() * sizeof(int));
  std::memcpy(CMSG_DATA(c), fds.data(), fds.size() * sizeof(int));
  ssize_t n;
  do n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == 1;
}

bool send_fd(int socket, int fd) { return send_fds(socket, {fd}, 'f'); }

int receive_fd(int socket) {
  FdMessage m;
  ssize_t n;
  do n = ::recvmsg(socket, &m.msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n != 1) return -1;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m.msg); c; c = CMSG_NXTHDR(&m.msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c), sizeof(int));
      return fd;
    }
  return -1;
}

}  // namespace kforge::worker
