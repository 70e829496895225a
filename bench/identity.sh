#!/usr/bin/env bash
# Benchmark (b) of docs/benchmarks.md: the identity test. For every built-in problem the candidate
# is the problem itself (ModelNew = Model); a correct harness reports 1.00 within noise. Target:
# every speedup within 1% of 1.00. Upstream reports 0.981 for ReLU every time (REFERENCE.md 7).
# Usage: bench/identity.sh [OUT_DIR]   (writes bench-identity.txt and bench-identity.jsonl there)
# IDENTITY_PROBLEMS: the problems, as globs under problems/ ("all" for the whole suite); by default
# 30 across every level and family (the whole suite takes minutes of device time).
# IDENTITY_ARGS: extra `kforge eval` options (e.g. --cuda-graph); IDENTITY_DEVICE: cuda (default) or
# cpu (to try the script on a machine without a GPU).
# IDENTITY_ALT_ENV: a second sweep of the same problems right after the first, with these
# variables set (e.g. KFORGE_WORKER_UNTIMED_CALLS=always), into bench-identity-alt.*, and a
# comparison of the two printed last: the same machine, minutes apart.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
kforge=build/release/kforge
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
default="level1/1_* level1/2_* level1/3_* level1/4_* level1/5_* level1/6_* level1/7_* level1/8_* level1/9_*
level1/10_* level1/17_* level1/38_* level1/56_* level1/66_* level1/72_* level1/97_* level2/1_* level2/2_*
level2/15_* level2/61_* level2/83_* level3/1_* level3/2_* level3/9_* level3/27_* level3/30_* level3/45_*
level5/1_* level5/2_* level5/5_*"
patterns="${IDENTITY_PROBLEMS:-$default}"
[[ "$patterns" == all ]] && patterns="level*/*"
for problem in $(for p in $patterns; do ls problems/$p.py 2>/dev/null || ls problems/$p 2>/dev/null; done | sort -u); do
  level=$(basename "$(dirname "$problem")")
  name=$(basename "$problem" .py)
  mkdir -p "$dir/$level/$name"
  { cat "$problem"; printf '\n\nModelNew = Model\n'; } >"$dir/$level/$name/identity.py"
done
db="build/bench-identity.db"
worker_logs="${XDG_CACHE_HOME:-$HOME/.cache}/kforge/logs"
# twin_excess NAME MARKS: what the workers logged against the reference twin since MARKS (each log's
# size before the sweep), into $out/NAME-twin.txt with a summary: every honest candidate's delivery
# excess over the twin's, against the limit past which it would be charged. How far the honest
# excesses stay under the limit says how far the slack, which a forger may hide in, could be cut.
twin_excess() {
  local name=$1 marks=$2 f size
  for f in "$worker_logs"/worker-cuda*.log; do
    [[ -f "$f" ]] || continue
    size=$(grep -F "$f " <<<"$marks" | awk '{print $2}')
    tail -c +$(( ${size:-0} + 1 )) "$f"
  done | grep -F "against the twin:" >"$out/$name-twin.txt" || true
  python3 - "$out/$name-twin.txt" <<'PY'
import re, sys
# excess, standard error, limit, median host, slack [ms] (older logs lack the slack)
rows = [tuple(float(x) for x in re.findall(r"(-?[0-9.]+) ms", line)[:5]) for line in open(sys.argv[1])]
if not rows:
    sys.exit(0)
def q(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]
excess = [r[0] for r in rows]
share = [r[0] / r[2] for r in rows if r[2] > 0]
print(f"against the twin, {len(rows)} evaluations: delivery excess [ms] median {q(excess, 0.5):.4f}, "
      f"90th {q(excess, 0.9):.4f}, largest {max(excess):.4f}; excess / limit median {q(share, 0.5):.2f}, "
      f"largest {max(share):.2f}; charged {sum(1 for s in share if s > 1)}; past the slack "
      f"(timed on past the interval) {sum(1 for r in rows if len(r) > 4 and r[0] > r[4])}")
PY
}
# sweep NAME [VAR=VALUE...]: the identities into $out/NAME.jsonl, its table into $out/NAME.txt.
sweep() {
  local name=$1; shift
  rm -f "$db" "$db"-*
  local marks f
  marks=$(for f in "$worker_logs"/worker-cuda*.log; do if [[ -f "$f" ]]; then echo "$f $(stat -c %s "$f")"; fi; done)
  env "$@" "$kforge" --db "$db" eval --device "${IDENTITY_DEVICE:-cuda}" --json ${IDENTITY_ARGS:-} "$dir" >"$out/$name.jsonl"
  python3 - "$out/$name.jsonl" <<'PY' | tee "$out/$name.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("benchmark (b): identity speedups (ModelNew = Model), interleaved, cold L2, median ratio [95% CI]")
print(f"{'problem':<34} {'ref ms':>9} {'speedup':>8} {'95% CI':>17} {'pairs':>6} {'wall s':>7}")
worst = 0.0
deviations = []
for j in rows:
    s, ci = j["speedup"], j["speedup_ci"]
    if s is None:
        print(f"{j['problem']:<34} {j['verdict']}: {j['message'][:60]}")
        worst = float("inf")
        continue
    worst = max(worst, abs(s - 1))
    deviations.append(s - 1)
    print(f"{j['problem']:<34} {j['ref_ms']:>9.4f} {s:>8.4f} [{ci[0]:.4f}, {ci[1]:.4f}] {j['samples']:>6} {j['wall_s']:>7.2f}")
rms = (sum(d * d for d in deviations) / len(deviations)) ** 0.5 if deviations else float("nan")
print(f"largest |speedup - 1| = {worst:.4f}  (target < 0.01), rms {rms:.4f}")
PY
  twin_excess "$name" "$marks" | tee -a "$out/$name.txt"
}
sweep bench-identity
[[ -z "${IDENTITY_ALT_ENV:-}" ]] && exit 0
# shellcheck disable=SC2086  # the variables are words of their own
sweep bench-identity-alt $IDENTITY_ALT_ENV
python3 - "$out/bench-identity.jsonl" "$out/bench-identity-alt.jsonl" "$IDENTITY_ALT_ENV" <<'PY' | tee "$out/bench-identity-ab.txt"
import json, sys
sides = {name: {r["problem"]: r for r in map(json.loads, open(path))} for name, path in (("this build", sys.argv[1]), ("alt", sys.argv[2]))}
print(f"identity, this build against alt ({sys.argv[3]}), one call")
for name, rows in sides.items():
    timed = [r for r in rows.values() if r["speedup"] is not None]
    off = sorted((r["problem"], round(r["speedup"], 4)) for r in timed if abs(r["speedup"] - 1) > 0.005)
    missed = sorted(r["problem"] for r in timed if not r["speedup_ci"][0] <= 1 <= r["speedup_ci"][1])
    worst = max((abs(r["speedup"] - 1) for r in timed), default=float("nan"))
    # The root mean square of speedup - 1: a spread that one sweep measures (a count within 0.5%
    # moves by one or two problems from run to run on either side).
    rms = (sum((r["speedup"] - 1) ** 2 for r in timed) / len(timed)) ** 0.5 if timed else float("nan")
    wall = sum(r["wall_s"] for r in rows.values())
    print(f"  {name:<11} {len(timed)} timed, {len(timed) - len(off)} within 0.5%, largest {worst:.4f}, "
          f"rms {rms:.4f}, wall {wall:.1f} s; outside: {off}; intervals without 1.00: {missed}")
PY
