#!/usr/bin/env bash
# bench/timing_trace.sh over the pairs whose bound margin was thinnest on the H200 (issue 18): the
# honest vec4 Add+ReLU (once timed by the bound, docs/benchmarks.md session 14) TRACE_REPEATS
# times, and the identity candidates of level1/9_Conv2d_3x3 and level1/2_ReLU. One table per run,
# then all of them together in OUT_DIR/timing-trace-set.txt.
# Usage: bench/timing_trace_set.sh [OUT_DIR]
#   TRACE_IDENTITY="26_Matmul_Transposed_Both 81_Conv_Transpose3d_Grouped_No_Bias": identity
#   candidates of these level-1 problems instead, TRACE_REPEATS times each (the vec4 case left out).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
names="${TRACE_IDENTITY:-9_Conv2d_3x3 2_ReLU}"
for name in $names; do
  { cat "problems/level1/$name.py"; printf '\n\nModelNew = Model\n'; } >"$dir/$name.py"
done
runs=()
if [[ -z "${TRACE_IDENTITY:-}" ]]; then
  for i in $(seq 1 "${TRACE_REPEATS:-3}"); do
    runs+=("vec4-$i tests/problems/hack_target/level1/1_Add_ReLU.py tests/legit/add_relu_inline_cuda_vec4.py")
  done
  runs+=("conv3x3 problems/level1/9_Conv2d_3x3.py $dir/9_Conv2d_3x3.py" "relu problems/level1/2_ReLU.py $dir/2_ReLU.py")
else
  for name in $names; do
    for i in $(seq 1 "${TRACE_REPEATS:-3}"); do
      runs+=("${name%%_*}-$i problems/level1/$name.py $dir/$name.py")
    done
  done
fi
: >"$out/timing-trace-set.txt"
for run in "${runs[@]}"; do
  read -r label problem candidate <<<"$run"
  mkdir -p "$out/trace-$label"
  TRACE_PROBLEM="$problem" TRACE_CANDIDATE="$candidate" bench/timing_trace.sh "$out/trace-$label" >/dev/null 2>&1
  { echo "== $label"; tail -n +3 "$out/trace-$label/timing-trace.txt"; } >>"$out/timing-trace-set.txt"
done
head -2 "$out/trace-${runs[0]%% *}/timing-trace.txt"
cat "$out/timing-trace-set.txt"
