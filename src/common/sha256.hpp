#pragma once
// SHA-256, for content-addressed keys in the store (problems, candidates, evaluations).
#include <string>
#include <string_view>

namespace kforge {

// Lower-case hex digest of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace kforge
