#include <gtest/gtest.h>

#include "suite/static_checks.hpp"

namespace kforge {
namespace {

TEST(StaticChecks, HonestKernelsPass) {
  EXPECT_FALSE(check_candidate_source("import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n"
                                      "        return torch.relu(x)\n",
                                      true));
  EXPECT_FALSE(check_candidate_source("__global__ void k(float* x) { x[threadIdx.x] = 0; }\n", false));
}

TEST(StaticChecks, ReachingIntoTheHarnessIsRejectedWithItsLine) {
  auto f = check_candidate_source("import torch\nimport gc\n\ndef find():\n    return gc.get_objects()\n", true);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->rule, "harness-access");
  EXPECT_NE(f->message.find("line 5"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("gc.get_objects"), std::string::npos) << f->message;
  EXPECT_TRUE(check_candidate_source("import _kforge_worker\n", true));
  EXPECT_TRUE(check_candidate_source("frame = sys._getframe(1)\n", true));
  EXPECT_TRUE(check_candidate_source("caller = inspect.currentframe().f_back\n", true));
  EXPECT_TRUE(check_candidate_source("open('/proc/self/mem', 'rb')\n", true));
  EXPECT_TRUE(check_candidate_source("int fd = open(\"/proc/self/mem\", O_RDONLY);\n", false));
  EXPECT_TRUE(check_candidate_source("process_vm_readv(pid, a, 1, b, 1, 0);\n", false));
}

TEST(StaticChecks, CommentsDoNotCount) {
  EXPECT_FALSE(check_candidate_source("# never call gc.get_objects() here\nx = 1  # nor sys._getframe\n", true));
  EXPECT_FALSE(check_candidate_source("// not /proc/self/mem\n/* nor\n process_vm_readv */ int x;\n", false));
  // A '#' inside a string is not a comment, and what follows it still counts.
  EXPECT_TRUE(check_candidate_source("s = '#'; gc.get_objects()\n", true));
  // A string that mentions the text does count: it can be passed to eval or open.
  EXPECT_TRUE(check_candidate_source("path = '/proc/self/mem'\n", true));
}

}  // namespace
}  // namespace kforge
