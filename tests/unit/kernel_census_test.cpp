#include <gtest/gtest.h>

#include "metrics/kernel_census.hpp"

namespace kforge::census {
namespace {

TEST(KernelCensus, LibrariesOfTorchAndNvidiaAreLibrary) {
  EXPECT_EQ(classify("/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so", "_ZN2at6native29vectorized_elementwise_kernel"),
            Origin::library);
  EXPECT_EQ(classify("/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcublasLt.so.13", "sm90_xmma_gemm_f32f32"),
            Origin::library);
  EXPECT_EQ(classify("/usr/lib/x86_64-linux-gnu/libcudnn_engines_precompiled.so.9", "cudnn_kernel"), Origin::library);
}

TEST(KernelCensus, CandidateCodeIsOwnWhateverTheKernelIsCalled) {
  // A load_inline extension, a native candidate, Triton's launcher, an unknown caller.
  EXPECT_EQ(classify("/home/u/.cache/kforge/builds/ab12/kforge_inline_ab12.so", "add_relu_kernel"), Origin::own);
  EXPECT_EQ(classify("/home/u/.cache/kforge/builds/cd34/candidate.so", "cutlass_gemm_kernel"), Origin::own);
  EXPECT_EQ(classify("/home/u/.triton/cache/XY/__triton_launcher.so", "softmax_kernel"), Origin::own);
  EXPECT_EQ(classify("", "mystery"), Origin::own);
  // A folder named like a library does not make the candidate's object one.
  EXPECT_EQ(classify("/data/libtorch_fork/candidate.so", "k"), Origin::own);
}

TEST(KernelCensus, InductorKernelsAreTorchCompilesWork) {
  EXPECT_EQ(classify("/tmp/w/__triton_launcher.so", "triton_poi_fused_add_relu_0"), Origin::compiled);
  EXPECT_EQ(classify("/tmp/w/__triton_launcher.so", "triton_red_fused_sum_1"), Origin::compiled);
  EXPECT_EQ(classify("/tmp/w/__triton_launcher.so", "triton_per_fused_softmax_2"), Origin::compiled);
  EXPECT_EQ(classify("/tmp/w/__triton_launcher.so", "triton_matmul_kernel"), Origin::own);
}

TEST(KernelCensus, ShareIsOwnGpuTime) {
  std::vector<Launch> launches = {{"own_a", "ext.so", Origin::own, 2.0, {}},
                                  {"gemm", "libcublasLt.so.13", Origin::library, 6.0, {}},
                                  {"copy", "libtorch_cuda.so", Origin::library, 2.0, {}}};
  Summary s = summarize(launches);
  EXPECT_EQ(s.own, 1);
  EXPECT_EQ(s.library, 2);
  ASSERT_TRUE(s.own_share());
  EXPECT_NEAR(*s.own_share(), 0.2, 1e-12);
  EXPECT_EQ(describe(s), "kernels: 1 own, 2 library (ext.so: 1, libcublasLt.so.13: 1, libtorch_cuda.so: 1); own 20% of GPU time");
  EXPECT_FALSE(fallback_violation(FallbackPolicy::strict, s));  // one own kernel is enough
  EXPECT_FALSE(fallback_violation(FallbackPolicy::mixed, s));
}

TEST(KernelCensus, StrictRejectsOnlyLibraryKernels) {
  Summary s = summarize({{"gemm", "libcublasLt.so.13", Origin::library, 1.0, {}},
                         {"triton_poi_fused_relu_0", "__triton_launcher.so", Origin::compiled, 0.5, {}}});
  auto violation = fallback_violation(FallbackPolicy::strict, s);
  ASSERT_TRUE(violation);
  EXPECT_NE(violation->find("no kernel of its own"), std::string::npos) << *violation;
  EXPECT_NE(violation->find("torch.compile: 1"), std::string::npos) << *violation;
  EXPECT_FALSE(fallback_violation(FallbackPolicy::mixed, s));  // mixed only reports
  EXPECT_NEAR(*s.own_share(), 0.0, 1e-12);
}

TEST(KernelCensus, StrictRejectsAForwardWithoutKernels) {
  Summary none = summarize({});
  EXPECT_FALSE(none.own_share());
  EXPECT_EQ(describe(none), "kernels: none launched");
  auto violation = fallback_violation(FallbackPolicy::strict, none);
  ASSERT_TRUE(violation);
  EXPECT_NE(violation->find("no kernel at all"), std::string::npos);
}

TEST(KernelCensus, ShareFallsBackToLaunchCountsWithoutTimes) {
  Summary s = summarize({{"a", "ext.so", Origin::own, 0, {}}, {"b", "libtorch_cuda.so", Origin::library, 0, {}},
                         {"c", "libtorch_cuda.so", Origin::library, 0, {}}, {"d", "ext.so", Origin::own, 0, {}}});
  EXPECT_NEAR(*s.own_share(), 0.5, 1e-12);
  EXPECT_NE(describe(s).find("own 50% of launches"), std::string::npos) << describe(s);
}

TEST(KernelCensus, PolicyNames) {
  EXPECT_EQ(policy_from_string("strict"), FallbackPolicy::strict);
  EXPECT_EQ(policy_from_string("mixed"), FallbackPolicy::mixed);
  EXPECT_FALSE(policy_from_string("lenient"));
  EXPECT_STREQ(to_string(FallbackPolicy::strict), "strict");
}

// The slowest own kernel is the one with the most GPU time over all its launches, described by its
// longest launch; library kernels never count, however slow.
TEST(KernelCensus, TheSlowestOwnKernelSumsItsLaunchesAndKeepsTheLongestShape) {
  LaunchShape small, large;
  small.grid_x = 10, small.block_x = 128;
  large.grid_x = 99, large.block_x = 256;
  std::vector<Launch> launches{{"gemm", "ext.so", Origin::own, 0.3, small},
                               {"cublas_gemm", "libcublasLt.so.13", Origin::library, 5.0, {}},
                               {"gemm", "ext.so", Origin::own, 0.5, large},
                               {"epilogue", "ext.so", Origin::own, 0.6, small}};
  auto slowest = slowest_own(launches);
  ASSERT_TRUE(slowest);
  EXPECT_EQ(slowest->kernel, "gemm");
  EXPECT_DOUBLE_EQ(slowest->gpu_ms, 0.8);
  EXPECT_EQ(slowest->launches, 2);
  EXPECT_EQ(slowest->shape.grid_x, 99);
  EXPECT_FALSE(slowest_own({{"cublas_gemm", "libcublasLt.so.13", Origin::library, 5.0, {}}}));
}

}  // namespace
}  // namespace kforge::census
