#pragma once
// The only memory the reference process and a candidate process share (docs/evaluation.md, "The
// boundary"). The reference process owns it: before each candidate call it copies that call's
// inputs in, and after the call it copies the candidate's outputs out. The candidate sees its own
// call's inputs and nothing else of the judge: not the reference's model, outputs or seeds, and
// not the inputs of calls still to come.
//   CPU:  a memfd mapped shared; its file descriptor travels over the socket (SCM_RIGHTS).
//   CUDA: one physical allocation (cuMemCreate, outside torch's caching allocator, so no other
//         tensor of the reference process shares its pages) whose POSIX file descriptor travels as
//         the CPU's does, mapped by each process into its own addresses; the candidate computes on
//         its inputs there in place (in_place()). With KFORGE_WORKER_ARENA=ipc, or where the driver
//         cannot make or export one, a cudaMalloc'ed block exported with a legacy CUDA IPC handle
//         instead, which a candidate's process copies its inputs out of: kernels ran slower on that
//         mapping (level1/16's matrix-vector product at 0.20 of its own speed, docs/benchmarks.md
//         session 19), and copies into it cost more than into its own memory. On the H200 (session
//         30) the VMM arena ran level 1's identities in 91.9 s against the IPC arena's 101.3 s, 97
//         of 100 within 0.5% of 1.00. The reference twin (worker/reference_twin.hpp) gets an arena
//         of its own, made the same way, so both models compute on arena inputs.
// Tensors in it are contiguous and described by a TensorSlot; every slot a candidate names is
// checked against the arena's bounds before it is viewed.
#include <ATen/ATen.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kforge::worker {

struct TensorSlot {
  int64_t offset = 0;  // [bytes] from the arena's start, aligned to kSlotAlignment
  at::ScalarType dtype = at::kFloat;
  std::vector<int64_t> shape;

  int64_t nbytes() const;
  nlohmann::json to_json() const;
  // Parses a slot a peer described; nullopt with `why` when it is malformed (unknown dtype,
  // negative extent, an element count that overflows).
  static std::optional<TensorSlot> from_json(const nlohmann::json& j, std::string* why);
};

inline constexpr int64_t kSlotAlignment = 256;  // [bytes] as CUDA's allocator aligns
int64_t aligned(int64_t bytes);

class ExchangeArena {
 public:
  // The reference process's side: a new arena of at least `bytes`.
  static std::unique_ptr<ExchangeArena> create(int64_t bytes, bool cuda);
  // The candidate process's side: the arena `description` names (CPU: mapped from `fd`).
  static std::unique_ptr<ExchangeArena> open(const nlohmann::json& description, int fd, bool cuda);
  // Whether an arena `description` names comes with a file descriptor (CPU, and VMM on CUDA).
  static bool sends_fd(const nlohmann::json& description, bool cuda);
  ~ExchangeArena();
  ExchangeArena(const ExchangeArena&) = delete;  // owns a mapping or a device allocation
  ExchangeArena& operator=(const ExchangeArena&) = delete;

  int64_t bytes() const { return bytes_; }
  bool cuda() const { return cuda_; }
  // Whether a candidate computes on views of this arena rather than on copies (a VMM arena).
  bool in_place() const { return vmm_ != nullptr; }
  // What the peer needs to open it: size, and on CUDA the IPC handle.
  nlohmann::json description() const;
  int fd() const { return fd_; }  // the descriptor to send (CPU: the memfd; VMM: the allocation's); else -1

  // A tensor over the slot's bytes (no copy); throws std::runtime_error when the slot leaves the arena.
  at::Tensor view(const TensorSlot& slot) const;
  // Whether the slot lies inside the arena; `why` says how it does not.
  bool contains(const TensorSlot& slot, std::string* why) const;

 private:
  ExchangeArena() = default;
  struct VmmMapping;  // the physical allocation and its mapping (exchange_arena.cpp)
  void* base_ = nullptr;
  std::unique_ptr<VmmMapping> vmm_;
  int64_t bytes_ = 0;
  bool cuda_ = false;
  bool owner_ = false;
  int fd_ = -1;
};

// Sends or receives one file descriptor with a one-byte message over a Unix socket.
bool send_fd(int socket, int fd);
int receive_fd(int socket);  // -1 on failure
// Sends up to three descriptors beside the one byte `byte` (SCM_RIGHTS): what send_fd sends, with
// 'f', for one; a zygote's spawn request (zygote_client.cpp) says with its byte what follows.
bool send_fds(int socket, const std::vector<int>& fds, char byte);

}  // namespace kforge::worker
