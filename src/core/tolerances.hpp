#pragma once
// How much summation-order noise a comparison admits, as shares of a tensor's largest |value|
// (src/worker/tensors.hpp compares with them; docs/evaluation.md quotes them, and a unit test holds
// the two together). Plain constants, so code without torch (the tests, the docs check) sees them.
namespace kforge {

// fp32 sums in another order than the reference's differ from it by a few units of fp32 rounding
// at the scale of the partial sums: with the default atol, an fp32 output admits this share of its
// largest value (src/worker/tensors.cpp gives the measurements).
inline constexpr int kFp32OrderNoiseLog2 = -16;
// A gradient admits four times as much: a parameter's gradient sums over every row of the batch
// (thousands to millions of terms, often cancelling), and a split or atomic reduction orders them
// otherwise; still 8 times under TF32's rounding (2^-11), which the fp64 check rejects anyway.
inline constexpr int kFp32GradientOrderNoiseLog2 = -14;
// A bf16 or fp16 gradient rounds each row's contribution before summing thousands of them: a
// backward that rounds where the reference does not (keeps an intermediate in fp32) differs from
// it by 0.4-0.7% of the gradient's largest value on level 6's bf16 MLPs (measured on the CPU),
// past 1e-2 * |ref| on 10-17% of the elements. 2^-6 (1.6%) of the largest value admits that. It
// is loose: bf16 gradients are held less tightly than fp32 ones (docs/evaluation.md).
inline constexpr int kHalfGradientOrderNoiseLog2 = -6;

inline constexpr double share_of_largest(int log2) { return log2 >= 0 ? 1.0 : 0.5 * share_of_largest(log2 + 1); }

}  // namespace kforge
