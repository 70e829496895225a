#!/usr/bin/env bash
# How many of tests/realworld/'s CUDA load_inline candidates take the split build (issue 19's
# target: at least 90%), with real nvcc and g++, no GPU needed: `kforge build --arch sm_90a` of
# each in a fresh build cache (the precompiled torch header kept between runs, as the tests keep
# it), then a table: strategy, status and seconds per candidate, and the counts.
# Usage: bench/split_coverage.sh [OUT_DIR]   (writes split-coverage.txt and .jsonl there)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pch="${TMPDIR:-/tmp}/kforge-test-pch-$(id -u)"
mkdir -p "$pch" "$work/cache/kforge/build"
ln -s "$pch" "$work/cache/kforge/build/pch"
python3 - "$work/run" <<'PY'
import json, os, shutil, sys
cases = json.load(open("tests/realworld/expected.json"))
for name, case in cases.items():
    source = open(os.path.join("tests/realworld", name)).read()
    if not case["gpu_only"] or "load_inline" not in source:
        continue
    level, problem = case["problem"].split("/")[1], os.path.basename(case["problem"])[:-3]
    os.makedirs(os.path.join(sys.argv[1], level, problem), exist_ok=True)
    shutil.copy(os.path.join("tests/realworld", name), os.path.join(sys.argv[1], level, problem))
PY
XDG_CACHE_HOME="$work/cache" build/release/kforge build --arch sm_90a --json "$work/run" >"$out/split-coverage.jsonl"
python3 - "$out/split-coverage.jsonl" <<'PY' | tee "$out/split-coverage.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("tests/realworld CUDA load_inline candidates built ahead (kforge build --arch sm_90a)")
print(f"{'candidate':<52} {'status':<14} {'build':<6} {'s':>6}")
count = {"split": 0, "whole": 0}
for r in rows:
    how = "whole" if "whole" in r.get("detail", "") else "split"
    if r["status"] == "built":
        count[how] += 1
    print(f"{r['candidate'].split('/')[-1]:<52} {r['status']:<14} {how if r['status'] == 'built' else '-':<6} {float(r['seconds']):>6.1f}")
built = count["split"] + count["whole"]
print(f"built split: {count['split']} of {built} built ({100 * count['split'] / max(built, 1):.0f}%); "
      f"{len(rows) - built} did not build (deliberate errors of the corpus)")
PY
