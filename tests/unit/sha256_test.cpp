#include "common/sha256.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kforge {
namespace {

// FIPS 180-4 example vectors, plus lengths around the 55/56/64-byte padding boundaries.
TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundariesDiffer) {
  std::string previous;
  for (size_t n : {54, 55, 56, 57, 63, 64, 65, 119, 120}) {
    std::string h = sha256_hex(std::string(n, 'x'));
    EXPECT_EQ(h.size(), 64u);
    EXPECT_NE(h, previous) << n;
    previous = h;
  }
}

}  // namespace
}  // namespace kforge
