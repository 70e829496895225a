#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace kforge {

// Whole file as bytes; throws kforge::Error naming the path and the OS reason.
std::string read_file(const std::filesystem::path& path);
// The same, or nothing where it cannot be read (missing, a folder, no permission), for callers to
// whom an unreadable file is an ordinary case.
std::optional<std::string> read_file_if_readable(const std::filesystem::path& path);

// A source file a user or a model gave (a candidate, a problem), read as text with limits, since
// its path may name anything: only a regular file (a link is followed to one), at most
// `max_bytes`, and valid UTF-8. A FIFO, a device or a link to one (`/dev/zero`) is refused without
// being read, so it can neither hang kforge nor feed it without bound; the file is opened
// non-blocking and checked again through its descriptor, so swapping it for a FIFO after the first
// check changes nothing. Throws kforge::Error saying which limit it broke.
inline constexpr size_t kMaxSourceBytes = size_t{4} << 20;
std::string read_source_file(const std::filesystem::path& path, size_t max_bytes = kMaxSourceBytes);

// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool valid_utf8(const std::string& text);

// Writes through a temporary beside the target and renames, so a reader never sees half a file.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace kforge
