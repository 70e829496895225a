#pragma once
// Sample statistics for timing: medians, and a bootstrap confidence interval on a speedup
// measured from paired (interleaved) samples. No GPU, no torch: tested as plain unit tests.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace kforge::stats {

double median(std::span<const double> samples);  // requires a non-empty span
double quantile(std::span<const double> samples, double q);  // linear interpolation, q in [0,1]

struct Interval {
  double low = 0;
  double high = 0;
};

// Speedup from paired samples (sample i of each side was taken back to back): the median of the
// pairwise ratios reference[i] / candidate[i]. Each pair shares the machine's state (clock,
// temperature, other tenants), so the ratio cancels what drifts between pairs; the ratio of the
// two marginal medians keeps that noise and, for launch-bound kernels with a 30% spread, was seen
// off by 2% on identical programs. The interval comes from resampling the pairs `resamples` times
// with a fixed seed, so the same samples always give the same interval. Pairs are resampled in
// runs of consecutive pairs (a circular block bootstrap, blocks of about n^(1/3) pairs): pairs
// timed close together share drifts (a batch's inputs, the clock, the allocator's layout), and
// resampling them one by one as if independent gave intervals too narrow, which on the H200
// missed 1.00 on 3 of 30 identity problems by 0.04-0.08%. Empty when a side has no samples or any
// sample is not positive.
struct SpeedupEstimate {
  double speedup = 0;
  Interval ci95;
  double rel_half_width() const { return (ci95.high - ci95.low) / (2 * speedup); }
};
std::optional<SpeedupEstimate> paired_speedup(std::span<const double> reference_ms,
                                              std::span<const double> candidate_ms,
                                              int resamples = 2000, uint64_t seed = 0x6b666f726765ULL);

// Two identical programs do not time identically: their tensors sit at other addresses (other
// memory channels and pages), and on the H200 identity candidates measured 1.00 +- 0.6% with
// bootstrap intervals 0.1-0.8% wide that missed 1.00 on 6 of 30 problems (docs/benchmarks.md,
// session 6). The sampling interval says nothing of that; the reported interval is therefore
// widened by this systematic allowance on each side (a Type B uncertainty, added linearly: the
// conservative way). The samples and the stopping rule are unaffected.
inline constexpr double kSystematicAllowance = 0.005;
Interval with_systematic_allowance(Interval sampling, double allowance = kSystematicAllowance);

// How far apart the reference's two timing processes came (the reference twins,
// worker/reference_twin.hpp; `process[i]` names pair i's, 0 or 1), as a share: the speedup over
// each process's pairs alone, the median of their ratios, one against the other, |s1 / s0 - 1|.
// Both were timed against the same candidate process in the same run, taking turns two pairs at a
// time, so the candidate's process and the GPU's drift cancel: what is left is how differently two
// fresh processes run the same code, and the noise of two medians. Empty with fewer than
// kFewestPairsPerProcess pairs on either side, a sample not positive, or sizes that disagree.
inline constexpr size_t kFewestPairsPerProcess = 3;
std::optional<double> reference_processes_apart(std::span<const double> reference_ms, std::span<const double> candidate_ms,
                                                std::span<const int> process);

// How far apart the two processes' own times came, the candidate's left out: |m1 / m0 - 1| of each
// process's median reference time. Pairs taking turns two at a time cancel the GPU's drift here
// too; what they cannot cancel is a candidate that runs slower on one process's pairs than on the
// other's, which moves reference_processes_apart and not this. Empty as that one is.
std::optional<double> reference_processes_apart_alone(std::span<const double> reference_ms, std::span<const int> process);

// The allowance a speedup's interval gets on each side: kSystematicAllowance, or more where the
// reference's two processes came further apart (`apart`) than the sampling noise explains. That
// noise is about the sampling interval's relative half-width (`estimate`): each process's median
// has half the pairs, so the difference of two has about the whole median's 95% half-width as its
// standard error. What is left beyond it is a speed drawn per process, which the candidate's one
// process may have drawn too, and no pair of one run can see.
double process_allowance(std::optional<double> apart, const SpeedupEstimate& estimate);

// Whether the two processes drew speeds of their own: their distance widened the allowance.
bool processes_drew_apart(std::optional<double> apart, const SpeedupEstimate& estimate);

// The block length paired_speedup uses for n pairs: round(n^(1/3)), at least 1 (the usual rate
// for a block bootstrap of a variance-like quantity).
size_t bootstrap_block_length(size_t n);

// paired_speedup's interval with a given block length (1: pairs resampled independently), for
// tests and for comparing the two.
std::optional<SpeedupEstimate> paired_speedup_blocks(std::span<const double> reference_ms,
                                                     std::span<const double> candidate_ms, size_t block,
                                                     int resamples = 2000, uint64_t seed = 0x6b666f726765ULL);

}  // namespace kforge::stats
