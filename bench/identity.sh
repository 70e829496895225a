#!/usr/bin/env bash
# Benchmark (b) of docs/benchmarks.md: the identity test. For every built-in problem the candidate
# is the problem itself (ModelNew = Model); a correct harness reports 1.00 within noise. Target:
# every speedup within 1% of 1.00. Upstream reports 0.981 for ReLU every time (REFERENCE.md 7).
# Usage: bench/identity.sh [OUT_DIR]   (writes bench-identity.txt and bench-identity.jsonl there)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
kforge=build/release/kforge
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for problem in problems/level*/*.py; do
  level=$(basename "$(dirname "$problem")")
  name=$(basename "$problem" .py)
  mkdir -p "$dir/$level/$name"
  { cat "$problem"; printf '\n\nModelNew = Model\n'; } >"$dir/$level/$name/identity.py"
done
db="build/bench-identity.db"
rm -f "$db" "$db"-*
"$kforge" --db "$db" eval --device cuda --json "$dir" >"$out/bench-identity.jsonl"
python3 - "$out/bench-identity.jsonl" <<'PY' | tee "$out/bench-identity.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("benchmark (b): identity speedups (ModelNew = Model), interleaved, cold L2, median ratio [95% CI]")
print(f"{'problem':<34} {'ref ms':>9} {'speedup':>8} {'95% CI':>17} {'pairs':>6} {'wall s':>7}")
worst = 0.0
for j in rows:
    s, ci = j["speedup"], j["speedup_ci"]
    if s is None:
        print(f"{j['problem']:<34} {j['verdict']}: {j['message'][:60]}")
        worst = float("inf")
        continue
    worst = max(worst, abs(s - 1))
    print(f"{j['problem']:<34} {j['ref_ms']:>9.4f} {s:>8.4f} [{ci[0]:.4f}, {ci[1]:.4f}] {j['samples']:>6} {j['wall_s']:>7.2f}")
print(f"largest |speedup - 1| = {worst:.4f}  (target < 0.01)")
PY
