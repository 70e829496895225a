// Reading a user's or a model's source file with limits (src/common/files.hpp): the UTF-8 check on
// the byte sequences that break it, and the refusals that keep kforge from reading what is not a
// source file.
#include "common/files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "common/errors.hpp"
#include "support/temp_dir.hpp"

namespace kforge {
namespace {

TEST(SourceFile, Utf8IsCheckedByTheStandardsRules) {
  EXPECT_TRUE(valid_utf8("plain ascii\n"));
  EXPECT_TRUE(valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));  // 2, 3 and 4 bytes
  EXPECT_FALSE(valid_utf8("\xff"));                                       // never a UTF-8 byte
  EXPECT_FALSE(valid_utf8("\xc3"));                                       // cut short
  EXPECT_FALSE(valid_utf8("\xe2\x82"));                                   // cut short
  EXPECT_FALSE(valid_utf8("\xc0\xaf"));                                   // overlong '/'
  EXPECT_FALSE(valid_utf8("\xed\xa0\x80"));                               // a surrogate
  EXPECT_FALSE(valid_utf8("\xf4\x90\x80\x80"));                           // past U+10FFFF
  EXPECT_FALSE(valid_utf8("\x80"));                                       // a lone continuation
}

TEST(SourceFile, OnlyRegularTextFilesWithinTheLimitAreRead) {
  testing::TempDir dir;
  std::ofstream(dir.file("ok.py")) << "print('hi')\n";
  EXPECT_EQ(read_source_file(dir.file("ok.py")), "print('hi')\n");
  EXPECT_THROW(read_source_file(dir.file("ok.py"), 5), Error);  // 12 bytes over a 5-byte limit
  ASSERT_EQ(::mkfifo(dir.file("pipe").c_str(), 0600), 0);
  try {
    read_source_file(dir.file("pipe"));
    FAIL() << "a FIFO was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a FIFO, not a source file: not read"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_source_file(dir.file("missing.py")), Error);
  EXPECT_THROW(read_source_file(dir.path()), Error);  // a directory
}

}  // namespace
}  // namespace kforge
