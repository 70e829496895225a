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

// Beside the elementwise test, a gradient's error as a whole: the norm of (candidate - reference)
// within this share of the reference's norm. The elementwise test holds every element to its
// tensor's largest value, and a softmax's gradient over a 32,000-word vocabulary keeps nearly all
// its elements under that tolerance (each about 1/32,000 of the largest): zeros in their place
// passed (kforge problems lint flagged level6/5, 13 and 14 on the H200), yet they carry
// 1/sqrt(32,000), about 2^-7.5, of the norm. Order noise moves the norm by about 2^-21 in fp32 (a
// weight gradient over 16,384 rows summed in one order or in four: 2^-21.5 apart on the CPU).
inline constexpr int kFp32GradientNormErrorLog2 = -12;
// bf16 and fp16: as loose as their elementwise noise (a rounding backward's whole error sits near
// 2^-8 of the norm).
inline constexpr int kHalfGradientNormErrorLog2 = -6;

inline constexpr double share_of_largest(int log2) { return log2 >= 0 ? 1.0 : 0.5 * share_of_largest(log2 + 1); }

}  // namespace kforge
