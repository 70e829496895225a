// The kernel the agent asks Nsight Compute for: the function name of the digest's slowest own
// kernel, as ncu's --kernel-name regex matches it (agent/kernel_profile.hpp).
#include <gtest/gtest.h>

#include "agent/kernel_profile.hpp"

namespace kforge::agent {
namespace {

std::string digest_naming(const std::string& kernel) {
  return "verdict: correct (5/5 trials)\nkernels: 1 own, 0 library; own 100% of GPU time\nslowest own kernel " + kernel +
         ": 0.182 ms in 1 launch(es), grid 65536 x block 256\n";
}

TEST(KernelProfile, TheSlowestOwnKernelsFunctionNameIsTakenFromTheDigest) {
  EXPECT_EQ(slowest_own_kernel_function(digest_naming("fused_add_relu_vec4(float4 const*, float4 const*, float4*, long)")),
            "fused_add_relu_vec4");
  EXPECT_EQ(slowest_own_kernel_function(digest_naming("void add_relu_kernel<float, 4>(float const*, float*, int)")),
            "add_relu_kernel");
  EXPECT_EQ(slowest_own_kernel_function(digest_naming("(anonymous namespace)::ns::tiled_gemm(float const*, float*)")),
            "tiled_gemm");
  EXPECT_EQ(slowest_own_kernel_function(digest_naming("my_kernel")), "my_kernel");
}

TEST(KernelProfile, NoNameWhereTheDigestStatesNoneOrOnlyAFragment) {
  EXPECT_EQ(slowest_own_kernel_function("verdict: correct\nkernels: 0 own, 2 library\n"), "");
  // Cut at 120 characters inside the parameter list: the name before it is whole.
  EXPECT_EQ(slowest_own_kernel_function(digest_naming("k2(float const*, float const*, float const*, float...")), "k2");
  // Not an identifier: nothing that would reach ncu as a regular expression.
  EXPECT_EQ(slowest_own_kernel_function(digest_naming("operator()")), "");
}

}  // namespace
}  // namespace kforge::agent
