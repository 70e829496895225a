#!/usr/bin/env bash
# The GPU test run, for the H200 machine (or any machine with a CUDA device): build, the unit and
# gpu tests (the cpu tests too with GPU_CHECK_CPU=1; CI runs them), `make demo`, then the
# benchmarks of docs/benchmarks.md. Full logs go to $OUT (default: build/gpu-check);
# a short summary table is printed last.
#   On the device machine: carry .deps/ (tools/fetch-deps.sh) and run tools/gpu-check.sh [tests|bench|all]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build/gpu-check}"
mkdir -p "$OUT"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
summary=()
step() {  # step NAME COMMAND...: runs, logs to $OUT/NAME.log, records pass/fail and seconds
  local name="$1"; shift
  local t0=$SECONDS
  if "$@" >"$OUT/$name.log" 2>&1; then
    summary+=("$(printf '%-22s %-6s %5ss' "$name" ok $((SECONDS - t0)))")
  else
    summary+=("$(printf '%-22s %-6s %5ss  (see %s.log)' "$name" FAILED $((SECONDS - t0)) "$name")")
  fi
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv >"$OUT/gpu.txt" 2>&1
echo "${KFORGE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}" >"$OUT/commit.txt"

what="${1:-all}"  # tests | bench | all: a device call is capped at 10 minutes, so two calls can split it
step build       make build
if [[ "$what" == tests || "$what" == all ]]; then
  step warm-cache  tools/warm-extension-cache.sh solutions/level*/*/*cuda*.py tests/candidates/cuda_*.py
  step test-unit   ctest --preset release -L unit
  step test-gpu    ctest --preset release -L gpu
  if [[ "${GPU_CHECK_CPU:-0}" == 1 ]]; then step test-cpu ctest --preset release -L cpu; fi
  step make-demo   make demo DEMO_DB="$OUT/demo.db"
fi
if [[ "$what" == bench || "$what" == all ]]; then
  step bench-wall  bench/eval_wall_time.sh "$OUT"
  step bench-ident bench/identity.sh "$OUT"
fi

echo
echo "== tests (ctest summary) =="
cat "$OUT"/test-*.log | grep -E "tests passed|tests failed|\(Failed\)|\*\*\*|Not Run|Skipped" | tail -20
echo "== demo =="
tail -25 "$OUT/make-demo.log"
echo "== benchmarks =="
cat "$OUT/bench-wall.txt" "$OUT/bench-identity.txt" 2>/dev/null
echo "== steps ($(cat "$OUT/commit.txt"), $(sed -n 2p "$OUT/gpu.txt")) =="
printf '%s\n' "${summary[@]}"
