#pragma once
// The only memory the reference process and a candidate process share (docs/evaluation.md, "The
// boundary"). The reference process owns it: before each candidate call it copies that call's
// inputs in, and after the call it copies the candidate's outputs out. The candidate sees its own
// call's inputs and nothing else of the judge: not the reference's model, outputs or seeds, and
// not the inputs of calls still to come.
//   CPU:  a memfd mapped shared; its file descriptor travels over the socket (SCM_RIGHTS).
//   CUDA: one cudaMalloc'ed block exported with a CUDA IPC handle (outside torch's caching
//         allocator, so no other tensor of the reference process shares its pages).
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
  ~ExchangeArena();
  ExchangeArena(const ExchangeArena&) = delete;  // owns a mapping or a device allocation
  ExchangeArena& operator=(const ExchangeArena&) = delete;

  int64_t bytes() const { return bytes_; }
  bool cuda() const { return cuda_; }
  // What the peer needs to open it: size, and on CUDA the IPC handle.
  nlohmann::json description() const;
  int fd() const { return fd_; }  // CPU: the memfd to send; -1 on CUDA

  // A tensor over the slot's bytes (no copy); throws std::runtime_error when the slot leaves the arena.
  at::Tensor view(const TensorSlot& slot) const;
  // Whether the slot lies inside the arena; `why` says how it does not.
  bool contains(const TensorSlot& slot, std::string* why) const;

 private:
  ExchangeArena() = default;
  void* base_ = nullptr;
  int64_t bytes_ = 0;
  bool cuda_ = false;
  bool owner_ = false;
  int fd_ = -1;
};

// Sends or receives one file descriptor with a one-byte message over a Unix socket.
bool send_fd(int socket, int fd);
int receive_fd(int socket);  // -1 on failure

}  // namespace kforge::worker
