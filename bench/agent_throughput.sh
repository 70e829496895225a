#!/usr/bin/env bash
# Issue 20's loop benchmark: kforge agent's own cost per attempt, with an instant scripted model
# (no model time), over a slice of level 1. Each problem's answers are distinct identity candidates
# (the problem itself, ModelNew = Model, with a variant comment so no two share a store key), so
# every attempt is built and evaluated afresh. Reports attempts per hour and the GPU's busy share
# (nvidia-smi sampled every 100 ms). Target (H200): at least 1,000 attempts per hour, GPU busy at
# least 70% of the run.
# Usage: bench/agent_throughput.sh [OUT_DIR]
#   AGENT_PROBLEMS (default 12 level-1 problems), AGENT_ATTEMPTS per problem (default 8),
#   AGENT_DEVICE (default cuda), AGENT_POLICY (default metr), AGENT_MAX_TIME (timing cap per attempt, default 0.5),
#   AGENT_SUITE (a suite folder, default problems/; tests/problems has tiny level-1 problems for a CPU run)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
kforge="$(pwd)/build/release/kforge"
dir=$(mktemp -d)
trap 'rm -rf "$dir"; [[ -n "${sampler:-}" ]] && kill "$sampler" 2>/dev/null || true' EXIT
attempts="${AGENT_ATTEMPTS:-8}"
problems="${AGENT_PROBLEMS:-1 2 3 4 5 6 7 8 9 10 17 19}"
args=()
suite="${AGENT_SUITE:-problems}"
suite="$(cd "$suite" && pwd)"
for id in $problems; do
  file=$(ls "$suite"/level1/${id}_*.py | head -1)
  name="level1/$(basename "$file" .py)"
  args+=(--problem "$name")
  mkdir -p "$dir/answers/$name"
  for k in $(seq 1 "$attempts"); do
    { printf '```python\n'; cat "$file"; printf '\n\nModelNew = Model  # variant %d\n```\n' "$k"; } >"$dir/answers/$name/$(printf %03d "$k").md"
  done
done
printf '[models.instant]\napi = "scripted"\nendpoint = "answers"\nmodel = "instant"\nconcurrency = 64\n' >"$dir/kforge.toml"

busy_log="$out/agent-throughput-gpu.csv"
if command -v nvidia-smi >/dev/null && [[ "${AGENT_DEVICE:-cuda}" != cpu ]]; then
  nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -lms 100 >"$busy_log" 2>/dev/null &
  sampler=$!
fi
t0=$(date +%s.%N)
(cd "$dir" && "$kforge" --db k.db agent --suite "$suite" --model instant "${args[@]}" --format kernelbench --device "${AGENT_DEVICE:-cuda}" \
  --policy "${AGENT_POLICY:-metr}" --seeds 4 --width 4 --attempts "$attempts" --max-time "${AGENT_MAX_TIME:-0.5}" \
  --no-reverify --out run) >"$out/agent-throughput.log" 2>&1
t1=$(date +%s.%N)
[[ -n "${sampler:-}" ]] && kill "$sampler" 2>/dev/null || true
python3 - "$out" "$t0" "$t1" "$busy_log" <<'PY' | tee "$out/agent-throughput.txt"
import re, sys
out, t0, t1, busy = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
log = open(f"{out}/agent-throughput.log").read()
attempts = len(re.findall(r"attempt #\d+ \(", log))
correct = len(re.findall(r"\): correct", log))
wall = t1 - t0
print("benchmark: kforge agent's own cost per attempt (instant scripted model, identity variants, level 1)")
print(f"attempts {attempts} ({correct} correct) in {wall:.1f} s: {attempts / wall * 3600:.0f} attempts per hour")
try:
    samples = [float(x) for x in open(busy).read().split() if x.strip()]
    if samples:
        print(f"GPU busy (nvidia-smi utilization > 0) in {sum(s > 0 for s in samples) / len(samples):.0%} of "
              f"{len(samples)} samples; mean utilization {sum(samples) / len(samples):.0f}%")
except FileNotFoundError:
    print("GPU busy: not sampled (no nvidia-smi, or a CPU run)")
PY
