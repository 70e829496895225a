#!/usr/bin/env bash
# Whether a problem's identity speedup depends on the draw of its two processes: each problem's
# identity candidate (ModelNew = Model) evaluated RUNS times in a row, each run a `kforge eval` of
# its own (fresh worker, fresh spares, fresh twin), then RUNS times again with REPEAT_ALT_ENV set.
# On the H200 level1/83's forward runs at 2.74 ms in some processes and 3.26 ms in others, for the
# process's life (docs/benchmarks.md, session 43): an identity lands at 1.00, 0.84 or 1.19 by which
# speed each side drew, at a narrow interval. A run's reference time (the twin's) says which speed
# the twin drew; its speedup, what the candidate's drew. The census part of each message says which
# library's kernels the candidate's process ran.
# Usage: bench/identity_repeats.sh [OUT_DIR]   (writes identity-repeats.txt there)
# REPEAT_PROBLEMS: problems as globs under problems/ (default level1/83_* level1/77_*);
# REPEAT_RUNS: runs per problem and side (default 8); REPEAT_ALT_ENV: variables for the second
# side (default PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: every allocation of both
# processes in VMM mappings, as the exchange arena's inputs are; empty: one side only);
# REPEAT_DEVICE: cuda (default) or cpu (to try the script on a machine without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
kforge=build/release/kforge
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
runs="${REPEAT_RUNS:-8}"
alt_env="${REPEAT_ALT_ENV-PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True}"
# shellcheck disable=SC2086  # the patterns are globs, expanded on purpose
for problem in $(for p in ${REPEAT_PROBLEMS:-level1/83_* level1/77_*}; do ls problems/$p.py 2>/dev/null || true; done | sort -u); do
  level=$(basename "$(dirname "$problem")")
  name=$(basename "$problem" .py)
  mkdir -p "$dir/$name/$level/$name"
  { cat "$problem"; printf '\n\nModelNew = Model\n'; } >"$dir/$name/$level/$name/identity.py"
done
# side NAME [VAR=VALUE...]: RUNS evaluations of each problem, one JSON line each, into $dir/NAME.jsonl.
side() {
  local name=$1; shift
  : >"$dir/$name.jsonl"
  for folder in "$dir"/*/; do
    for _ in $(seq "$runs"); do
      env "$@" "$kforge" --db "$dir/$name.db" eval --device "${REPEAT_DEVICE:-cuda}" --json --force "$folder" >>"$dir/$name.jsonl" || true
    done
  done
}
side default
# shellcheck disable=SC2086  # the variables are words of their own
[[ -n "$alt_env" ]] && side alt $alt_env
python3 - "$dir" "$alt_env" <<'PY' | tee "$out/identity-repeats.txt"
import json, os, re, sys
folder, alt_env = sys.argv[1], sys.argv[2]
print("identity repeats: each run a kforge eval of its own (fresh processes); ref ms is the twin's")
for side, label in (("default", "default"), ("alt", alt_env)):
    path = os.path.join(folder, side + ".jsonl")
    if not os.path.exists(path):
        continue
    rows = [json.loads(l) for l in open(path) if l.strip()]
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
            if s is None:
                print(f"  {j['verdict']}: {(j.get('message') or '')[:80]}")
                off += 1
                continue
            off += abs(s - 1) > 0.005
            print(f"  ref {j['ref_ms']:8.4f} ms  speedup {s:.4f} [{ci[0]:.4f}, {ci[1]:.4f}]  {kernels.group(0) if kernels else ''}")
        print(f"  {off} of {len(runs)} runs outside 0.5% of 1.00")
PY
