#pragma once
#include <filesystem>
#include <string>

namespace kforge {

// Whole file as bytes; throws kforge::Error naming the path and the OS reason.
std::string read_file(const std::filesystem::path& path);

// Writes through a temporary beside the target and renames, so a reader never sees half a file.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace kforge
