#pragma once
// Length-prefixed JSON frames over pipes: the whole wire format between kforge and a worker.
// A frame is a 4-byte little-endian payload length followed by that many bytes of UTF-8 JSON.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace kforge::protocol {

inline constexpr int kVersion = 2;
// Larger frames are refused: a worker's answer is a few hundred KB at most (raw samples), and a
// corrupted length must not make the reader allocate gigabytes.
inline constexpr uint32_t kMaxFrameBytes = 64u << 20;
// Deeper nesting is refused before it is parsed: kforge's own messages nest a few levels, and the
// parser builds a value for every level (about 90 bytes each), so a 64 MiB frame of brackets
// written into its channel by a candidate's process cost the reference process 2.7 GB (session 45).
inline constexpr int kMaxFrameDepth = 64;
// What a candidate's process may send in one frame (its answers, its census, a build request with
// its sources): a parsed frame costs the reader about 15 times its size where it is one flat
// array of numbers (a 60 MB frame of zeros took the reference process to 1.46 GB, session 45).
inline constexpr uint32_t kMaxCandidateFrameBytes = 16u << 20;

enum class ReadStatus { ok, closed, timed_out, malformed };

struct ReadResult {
  ReadStatus status = ReadStatus::closed;
  nlohmann::json message;  // valid when status == ok
  std::string error;       // why, when status == malformed
};

// Writes one frame; false when the peer is gone (EPIPE) or the write fails.
bool write_frame(int fd, const nlohmann::json& message);

// Reads one frame, waiting at most until `deadline` (none: wait forever), of at most `max_bytes`.
ReadResult read_frame(int fd, std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt,
                      uint32_t max_bytes = kMaxFrameBytes);

}  // namespace kforge::protocol
