#!/usr/bin/env bash
# Whether a problem's identity speedup depends on the draw of its two processes: bench/identity.sh's
# sweep of one problem, run RUNS times in a row (each a `kforge eval` of its own: fresh worker, fresh
# spares, fresh twins), each run followed by the same sweep with REPEAT_ALT_ENV where it is set.
# On the H200 level1/83's forward runs at 2.74 ms in some processes and 3.26 ms in others, for the
# process's life (docs/benchmarks.md, session 43): an identity lands at 1.00, 0.84 or 1.19 by which
# speed each side drew, at a narrow interval. A run's reference time (the twins', two since session
# 49, their distance beside it) says which speed the twins drew; its speedup, what the candidate's
# drew. The census part of each message says which library's kernels the candidate's process ran.
# Usage: bench/identity_repeats.sh [OUT_DIR]   (writes identity-repeats.txt there, and the sweeps'
# own tables into identity-repeats-sweeps.log)
# REPEAT_PROBLEMS: problems as globs under problems/ (default level1/83_* level1/77_*);
# REPEAT_RUNS: runs per problem (default 8); REPEAT_ALT_ENV: variables for a second sweep after each
# run (an A/B in one call, e.g. PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True or
# KFORGE_WORKER_INPUT_LAYOUTS=4; default none: until session 48 it defaulted to expandable segments,
# and a call that meant one arm paid for two);
# IDENTITY_DEVICE: as bench/identity.sh takes it.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
runs="${REPEAT_RUNS:-8}"
alt_env="${REPEAT_ALT_ENV:-}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
: >"$dir/default.jsonl"
: >"$dir/alt.jsonl"
: >"$out/identity-repeats-sweeps.log"
for pattern in ${REPEAT_PROBLEMS:-level1/83_* level1/77_*}; do
  for _ in $(seq "$runs"); do
    IDENTITY_PROBLEMS="$pattern" IDENTITY_ALT_ENV="$alt_env" bench/identity.sh "$dir/sweep" >>"$out/identity-repeats-sweeps.log" 2>&1 || true
    cat "$dir/sweep/bench-identity.jsonl" >>"$dir/default.jsonl" 2>/dev/null || true
    [[ -n "$alt_env" ]] && { cat "$dir/sweep/bench-identity-alt.jsonl" >>"$dir/alt.jsonl" 2>/dev/null || true; }
    rm -rf "$dir/sweep"
  done
done
python3 - "$dir" "$alt_env" <<'PY' | tee "$out/identity-repeats.txt"
import json, os, re, statistics, sys
folder, alt_env = sys.argv[1], sys.argv[2]
print("identity repeats: each run a kforge eval of its own (fresh processes); ref ms is the twins', cand ms the candidate process's;"
      " 'twins' how far apart the reference's two timing processes came (session 49)")
for side, label in (("default", "default"), ("alt", alt_env)):
    rows = [json.loads(l) for l in open(os.path.join(folder, side + ".jsonl")) if l.strip()]
    if not rows:
        continue
    print(f"\n== {label}")
    by_problem = {}
    for j in rows:
        by_problem.setdefault(j["problem"], []).append(j)
    for problem, runs in by_problem.items():
        print(problem)
        off = 0
        for j in runs:
            s, ci = j.get("speedup"), j.get("speedup_ci")
            kernels = re.search(r"kernels: [^;]*", j.get("message") or "")
            twins = re.search(r"two timing processes ([\d.]+)% apart", j.get("message") or "")
            if s is None:
                print(f"  {j['verdict']}: {(j.get('message') or '')[:80]}")
                off += 1
                continue
            off += abs(s - 1) > 0.005
            cand = j.get("cand_ms")
            cand = f"{cand:8.4f}" if isinstance(cand, (int, float)) else "       -"
            print(f"  ref {j['ref_ms']:8.4f} ms  cand {cand} ms  speedup {s:.4f} [{ci[0]:.4f}, {ci[1]:.4f}]  "
                  f"{'twins ' + twins.group(1) + '%  ' if twins else ''}{kernels.group(0) if kernels else ''}")
        print(f"  {off} of {len(runs)} runs outside 0.5% of 1.00")
    # Where the per-process spread sits: each problem's sd of its runs' speedups (session 46's
    # level 1 put nearly all of it in a few problems; docs/benchmarks.md, session 47).
    spreads = sorted(((statistics.stdev(s), problem, s) for problem, runs in by_problem.items()
                      for s in [[j["speedup"] for j in runs if j.get("speedup") is not None]] if len(s) >= 2),
                     reverse=True)
    if spreads:
        print(f"\nspread of each problem's speedups over its runs ({label}), largest first:")
        for sd, problem, s in spreads[:10]:
            print(f"  {problem:<55} sd {100 * sd:.3f}%  runs {' '.join(f'{x:.4f}' for x in s)}")
        pooled = (sum(sd * sd for sd, _, _ in spreads) / len(spreads)) ** 0.5
        print(f"  {len(spreads)} problems: median sd {100 * statistics.median(sd for sd, _, _ in spreads):.3f}%,"
              f" pooled {100 * pooled:.3f}%")
PY
