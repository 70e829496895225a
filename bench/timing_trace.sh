#!/usr/bin/env bash
# Why the bound replaces an honest candidate's times (docs/evaluation.md, "The candidate's side"):
# the identity candidate of the hack target's Add+ReLU, evaluated eagerly and under --cuda-graph
# with KFORGE_WORKER_TIMING_TRACE=1, and each timed call's parts from the worker log: the request
# as kforge's clock saw it, the calibrated cost, the queueing, the bound and the reported host
# time. The table gives their medians and the excess (bound - reported) per mode.
# Usage: bench/timing_trace.sh [OUT_DIR]   TRACE_PROBLEM / TRACE_CANDIDATE to trace another pair,
# TRACE_MODES to time fewer modes ("eager" for a training problem, which --cuda-graph refuses).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
problem="${TRACE_PROBLEM:-tests/problems/hack_target/level1/1_Add_ReLU.py}"
candidate="${TRACE_CANDIDATE:-tests/candidates/identity.py}"
logs="${XDG_CACHE_HOME:-$HOME/.cache}/kforge/logs"
modes="${TRACE_MODES:-eager graph}"
for mode in $modes; do
  flag=()
  [[ "$mode" == graph ]] && flag=(--cuda-graph)
  rm -f "$logs"/worker-*.log
  db="build/bench-trace-$mode.db"
  rm -f "$db" "$db"-*
  KFORGE_WORKER_TIMING_TRACE=1 build/release/kforge --db "$db" eval --device cuda --json --max-time 1 "${flag[@]}" \
    --problem "$problem" "$candidate" >"$out/timing-trace-$mode.json" 2>"$out/timing-trace-$mode.err" || true
  grep -h "timing trace" "$logs"/worker-*.log >"$out/timing-trace-$mode.txt" 2>/dev/null || true
done
python3 - "$out" $modes <<'PY' | tee "$out/timing-trace.txt"
import json, re, statistics, sys
out = sys.argv[1]
timed = re.compile(r"request ([\d.]+) ms, calibrated cost ([\d.]+), queued ([\d.]+), bound ([\d.]+); "
                   r"reported host ([\d.]+), events ([\d.]+); drained ([\d.]+); inside ([\d.]+)")
calib = re.compile(r"calibration: request ([\d.]+) ms, inside ([\d.]+), host ([\d.]+)")
med = statistics.median
print("timed calls' parts, medians in ms (KFORGE_WORKER_TIMING_TRACE); excess = bound - reported host;")
print("delivery = request - inside (the candidate process's own word); work = inside - host - queued;")
print("drained = GPU work found after the call returned (its median and its largest)")
print(f"{'mode':<6} {'calls':>5} {'request':>8} {'cost':>7} {'queued':>7} {'bound':>7} {'host':>7} {'events':>7} {'excess':>7}"
      f" {'deliv':>7} {'work':>7} {'drain':>7} {'max':>7} | {'cal.n':>5} {'deliv':>7} {'work':>7}  verdict, speedup")
for mode in sys.argv[2:]:
    lines = open(f"{out}/timing-trace-{mode}.txt").read().splitlines()
    rows = [tuple(map(float, m.groups())) for m in map(timed.search, lines) if m]
    cal = [tuple(map(float, m.groups())) for m in map(calib.search, lines) if m]
    try:
        result = json.loads(open(f"{out}/timing-trace-{mode}.json").read().splitlines()[0])
        said = f"{result['verdict']}, {result['speedup']} (ref {result.get('ref_ms')} ms, cand {result.get('cand_ms')} ms)"
    except Exception:
        said = "no result (see timing-trace-%s.err)" % mode
    if not rows:
        print(f"{mode:<6} no trace lines; {said}")
        continue
    cols = [med(col) for col in zip(*rows)][:6]
    excess = med(r[3] - r[4] for r in rows)
    deliv = med(r[0] - r[7] for r in rows)
    work = med(r[7] - r[4] - r[2] for r in rows)
    drain, drain_max = med(r[6] for r in rows), max(r[6] for r in rows)
    cal_deliv = med(c[0] - c[1] for c in cal) if cal else float("nan")
    cal_work = med(c[1] - c[2] for c in cal) if cal else float("nan")
    print(f"{mode:<6} {len(rows):>5} " + " ".join(f"{m:>7.3f}" for m in cols) +
          f" {excess:>7.3f} {deliv:>7.3f} {work:>7.3f} {drain:>7.3f} {drain_max:>7.3f} | {len(cal):>5} {cal_deliv:>7.3f} {cal_work:>7.3f}  {said}")
PY
