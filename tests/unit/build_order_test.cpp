// The order of load_inline builds ahead of their jobs (planner/build_order.hpp): the first
// candidate of every guessed header flag set starts first, and candidates of more builds first
// within each group.
#include "planner/build_order.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kforge {
namespace {

std::string candidate(const std::string& flags) {
  return "from torch.utils.cpp_extension import load_inline\n"
         "ext = load_inline(name='x', cpp_sources=src, functions=['f'], " +
         flags + "verbose=False)\n";
}

TEST(BuildOrder, FlagSetsAreReadAsTheHeaderKeysThem) {
  // -O1..-O3 share a header, warnings and repeats do not matter, an empty flag is none.
  EXPECT_EQ(guessed_header_flags(candidate("extra_cflags=['-O3'], ")),
            guessed_header_flags(candidate("extra_cflags=[\"-O2\", \"-Wall\", \"-O2\"], ")));
  EXPECT_EQ(guessed_header_flags(candidate("extra_cflags=[\"\"], ")), guessed_header_flags(candidate("")));
  EXPECT_EQ(guessed_header_flags(candidate("extra_cflags=['-O3 -fopenmp'], ")),
            guessed_header_flags(candidate("extra_cflags=['-O3', '-fopenmp'], ")))
      << "torch splits a flag holding spaces";
  EXPECT_NE(guessed_header_flags(candidate("extra_cflags=['-O3', '-fopenmp'], ")),
            guessed_header_flags(candidate("extra_cflags=['-O3'], ")));
  EXPECT_NE(guessed_header_flags(candidate("extra_cflags=['-O3'], ")), guessed_header_flags(candidate("")))
      << "-O0 defines __NO_INLINE__: a header of its own";
  EXPECT_EQ(guessed_header_flags(candidate("extra_cflags=FLAGS, ")), "expression FLAGS");
}

TEST(BuildOrder, TheFirstOfEachFlagSetComesFirst) {
  const std::vector<std::string> sources{
      candidate("extra_cflags=['-O3'], "), candidate("extra_cflags=['-O2'], "), candidate(""),
      candidate("extra_cflags=['-O3'], "), candidate("extra_cflags=['-O3', '-march=native'], "), candidate("")};
  EXPECT_EQ(header_makers_first(sources), (std::vector<size_t>{0, 2, 4, 1, 3, 5}));
  EXPECT_TRUE(header_makers_first({}).empty());
}

TEST(BuildOrder, CandidatesOfMoreExtensionsStartFirstWithinTheirGroup) {
  const std::string two = candidate("extra_cflags=['-O3'], ") + candidate("extra_cflags=['-O3'], ");
  EXPECT_EQ(load_inline_calls(two), 2u);
  EXPECT_EQ(load_inline_calls(candidate("")), 1u);
  EXPECT_EQ(load_inline_calls("import torch\n"), 0u);
  const std::vector<std::string> sources{candidate("extra_cflags=['-O3'], "), candidate(""), two, candidate(""),
                                         candidate("") + candidate("")};
  // Makers: the two-call -O3 candidate (2) and the two-call -O0 one (4); then the rest in order.
  EXPECT_EQ(header_makers_first(sources), (std::vector<size_t>{2, 4, 0, 1, 3}));
}

}  // namespace
}  // namespace kforge
