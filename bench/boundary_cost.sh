#!/usr/bin/env bash
# Benchmark (f) of docs/benchmarks.md: what the process boundary (issue 18: the reference and each
# candidate in processes of their own) costs, measured against the commit before it in one run.
#   1. identity candidates (ModelNew = Model) of bench/identity.sh's 30 problems: wall time per
#      candidate (kforge's own figure per evaluation) and the speedups, before and after;
#   2. the whole of level 1 (100 identity candidates): the run's wall time, before and after.
# Target: at most 0.5 s more per candidate, level 1 no slower than 1.3x, every identity speedup
# within 0.5% of 1.00 with its interval containing 1.00.
# Usage: bench/boundary_cost.sh [OUT_DIR]   BEFORE=<commit> (default 2af1dae, the last without it)
#   BOUNDARY_PARTS=thirty,level1 (default both): the parts to run, so that each fits a device call;
#   the table is made from whatever parts' results are in OUT_DIR. BOUNDARY_SIDES=after: this build
#   only (no build of BEFORE), for the phase breakdown; "ipc" adds this build with
#   KFORGE_WORKER_ARENA=ipc (the legacy CUDA IPC arena, copied out of) and "vmm" with =vmm (the
#   default since session 30: a VMM allocation, the candidate computing on it in place);
#   "alt" adds this build again with BOUNDARY_ALT_ENV (e.g. KFORGE_WORKER_PAIRS_PER_BATCH=10, or
#   KFORGE_WORKER_BATCH_MEMORY_SHARE=0.5: batches of half the free memory instead of a quarter) in its
#   environment and BOUNDARY_ALT_ARGS (e.g. --warmup 1) on its command line: two settings, one run
#   (session 31: BOUNDARY_ALT_ENV=KFORGE_WORKER_REFERENCE=inline, the reference timed in the
#   reference process, against the default reference twin; session 49: KFORGE_WORKER_TWINS=1, one
#   twin against the default two, the table then giving the twins' distances; session 36: KFORGE_WORKER_SPARES=settle,
#   the spares waited for before the timing instead of stopped where they are); "alt2" likewise
#   with BOUNDARY_ALT2_ENV (session 37: KFORGE_WORKER_SPARE_COUNT=4 and KFORGE_WORKER_SPARE_WARMUP=1;
#   session 38: KFORGE_WORKERS_PER_GPU=2, two workers taking turns on the GPU, at e35838f, since
#   reverted: docs/benchmarks.md says why; session 51: KFORGE_WORKER_SPARE_COUNT=8 and
#   KFORGE_WORKER_SPARE_TAKE=oldest). "again" runs this build once more, after "after", into the
#   store "after" left, every candidate evaluated anew (--force): a problem whose twins drew apart in
#   the first run has its interval widened by the store's remembered draw in the second (schema 18).
# Each run's phase medians end with what the worker's jobs cost beyond their phases ("job costs"
# in the worker's log: evaluate() outside load, correctness and timing; the release after a job).
# Needs the commit in .git and .deps/ (tools/fetch-deps.sh) where the machine has no registry.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
before="${BEFORE:-2af1dae}"
src="build/before-$before"
if [[ "${BOUNDARY_SIDES:-before after}" == *before* && ! -x "$src/build/release/kforge" ]]; then
  rm -rf "$src"
  mkdir -p "$src"
  git archive "$before" | tar -x -C "$src"
  [[ -d .deps ]] && ln -sfn "$(pwd)/.deps" "$src/.deps"
  (cd "$src" && cmake --preset release -DKFORGE_PYTHON="$(tools/find-python.sh)" >/dev/null &&
    cmake --build --preset release --target kforge _kforge_worker -- --quiet) >"$out/boundary-before-build.log" 2>&1  # no tests: only what evaluates
fi
old="$src/build/release/kforge"
new=build/release/kforge

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for side in ${BOUNDARY_SIDES:-before after}; do rm -f "$out"/boundary-*-"$side".wall; done  # other sides' results stay (a later call adds one)
identity_folder() {  # identity_folder NAME GLOBS...: ModelNew = Model for each problem, in $dir/NAME
  local name="$1"; shift
  for problem in $(for p in "$@"; do ls problems/$p.py 2>/dev/null || true; done | sort -u); do
    local level
    level=$(basename "$(dirname "$problem")")
    mkdir -p "$dir/$name/$level/$(basename "$problem" .py)"
    { cat "$problem"; printf '\n\nModelNew = Model\n'; } >"$dir/$name/$level/$(basename "$problem" .py)/identity.py"
  done
}
identity_folder thirty level1/1_\* level1/2_\* level1/3_\* level1/4_\* level1/5_\* level1/6_\* level1/7_\* level1/8_\* \
  level1/9_\* level1/10_\* level1/17_\* level1/38_\* level1/56_\* level1/66_\* level1/72_\* level1/97_\* level2/1_\* \
  level2/2_\* level2/15_\* level2/61_\* level2/83_\* level3/1_\* level3/2_\* level3/9_\* level3/27_\* level3/30_\* \
  level3/45_\* level5/1_\* level5/2_\* level5/5_\*
identity_folder level1 'level1/*'

logs="${XDG_CACHE_HOME:-$HOME/.cache}/kforge/logs"
log_sizes() { for f in "$logs"/worker-*.log; do if [[ -f "$f" ]]; then echo "$f $(stat -c %s "$f")"; fi; done; }
run() {  # run BINARY NAME FOLDER: evaluates the folder, JSON lines to $out/boundary-NAME.jsonl, wall seconds to stdout
  local binary="$1" name="$2" folder="$3" db="build/bench-boundary-$2.db"
  # "again": this build once more into the default side's store, every result evaluated anew
  # (--force), so that what that store remembers (a problem's draw, schema 18) is in play.
  if [[ $name == *-again ]]; then db="build/bench-boundary-${name%-again}-after.db"; else rm -f "$db" "$db"-*; fi
  local t0 t1 sizes
  sizes=$(log_sizes)
  t0=$(date +%s%N)
  local extra=""; [[ $name == *-alt || $name == *-alt2 ]] && extra="${BOUNDARY_ALT_ARGS:-}"
  [[ $name == *-again ]] && extra="--force"
  # shellcheck disable=SC2086  # the extra options are words
  KFORGE_WORKER_PHASE_TRACE=1 "$binary" --db "$db" eval --device cuda --json $extra "$dir/$folder" >"$out/boundary-$name.jsonl" 2>"$out/boundary-$name.err"
  t1=$(date +%s%N)
  # The phase traces this run's workers wrote (worker/phase_trace.hpp; the build before the boundary writes none).
  python3 - "$out/boundary-$name.phases" "$logs" "$sizes" <<'PY'
import glob, sys
dest, logs, sizes = sys.argv[1], sys.argv[2], dict(l.rsplit(" ", 1) for l in sys.argv[3].splitlines() if l)
with open(dest, "w") as out:
    for f in sorted(glob.glob(f"{logs}/worker-*.log")):
        with open(f, "rb") as log:
            log.seek(int(sizes.get(f, 0)))
            out.writelines(l for l in log.read().decode(errors="replace").splitlines(True) if "phase trace:" in l or "job costs:" in l)
PY
  python3 -c "print(f'{($t1 - $t0) / 1e9:.1f}')"
}
# Before and after one after the other, so drift on the machine touches both alike.
parts="${BOUNDARY_PARTS:-thirty,level1}"
for part in ${parts//,/ }; do
  for side in ${BOUNDARY_SIDES:-before after}; do
    binary=$new; [[ $side == before ]] && binary=$old
    # ipc / vmm: this build with the exchange arena of that kind (worker/exchange_arena.hpp; the
    # default is vmm since session 30, and "after" runs the default).
    arena=""; [[ $side == ipc || $side == vmm ]] && arena=$side
    if [[ $side == alt || $side == alt2 ]]; then
      alt_env=${BOUNDARY_ALT_ENV:-}; [[ $side == alt2 ]] && alt_env=${BOUNDARY_ALT2_ENV:-}
      # shellcheck disable=SC2086,SC2163  # NAME=VALUE words, exported as such
      (if [[ -n "$alt_env" ]]; then export $alt_env; fi
       run "$binary" "$part-$side" "$part" >"$out/boundary-$part-$side.wall")
    else
      if [[ -n $arena ]]; then export KFORGE_WORKER_ARENA=$arena; else unset KFORGE_WORKER_ARENA; fi
      run "$binary" "$part-$side" "$part" >"$out/boundary-$part-$side.wall"
      unset KFORGE_WORKER_ARENA
    fi
  done
done

python3 - "$out" "$before" <<'PY' |
import json, os, re, statistics, sys
out, before = sys.argv[1], sys.argv[2]
def rows(name):
    return {j["problem"]: j for j in map(json.loads, open(f"{out}/boundary-{name}.jsonl"))}
SIDES = ("before", "after", "ipc", "vmm", "alt", "alt2", "again")  # the order their rows print in
walls = {}
for name in (f"{group}-{side}" for group in ("thirty", "level1") for side in SIDES):
    if os.path.exists(f"{out}/boundary-{name}.wall"):
        walls[name] = float(open(f"{out}/boundary-{name}.wall").read())
print(f"benchmark (f): the process boundary's cost, {before} (before) against this build (after), one run")
for name, wall in sorted(walls.items()):
    group = name.split("-")[0]
    ratio = f"   {wall / walls[group + '-before']:.3f}x before" if group + "-before" in walls and not name.endswith("-before") else ""
    if name.endswith("-after") and group + "-alt" in walls:  # this build's default against its alt setting, one run
        ratio += f"   {wall / walls[group + '-alt']:.3f}x alt"
    print(f"  {name:<16} whole run {wall:7.1f} s{ratio}")
for group, count in (("thirty", 30), ("level1", 100)):
    for side in SIDES[1:]:
        if f"{group}-{side}" in walls:
            r = rows(f"{group}-{side}")
            speedups = sorted(j["speedup"] for j in r.values() if j["speedup"] is not None)
            within = sum(abs(x - 1) <= 0.005 for x in speedups)
            print(f"  {group}-{side}: wall per candidate median {statistics.median(j['wall_s'] for j in r.values()):.2f} s; "
                  f"{len(speedups)} timed, {within} within 0.5% of 1.00, median {statistics.median(speedups) if speedups else float('nan'):.4f}; "
                  f"outside: {[(p, round(j['speedup'], 4)) for p, j in sorted(r.items()) if j['speedup'] is not None and abs(j['speedup'] - 1) > 0.005][:8]}")
            missing = [p for p, j in sorted(r.items()) if j["speedup"] is not None and not (j["speedup_ci"][0] <= 1 <= j["speedup_ci"][1])]
            print(f"    intervals without 1.00: {len(missing)} {missing[:6]}")
            # The reference's two twins (session 49): how far apart each evaluation found them, and
            # whose interval that widened past the fixed allowance.
            apart = {p: float(m.group(1)) for p, j in r.items()
                     if (m := re.search(r"the reference's two timing processes ([\d.]+)% apart", j.get("message") or ""))}
            if apart:
                widened = sorted(p for p, j in r.items() if "the interval widened to" in (j.get("message") or ""))
                far = sorted(apart.items(), key=lambda kv: -kv[1])[:5]
                remembered = sorted(p for p, j in r.items() if "drew speeds that far apart on this device before" in (j.get("message") or ""))
                if remembered:
                    print(f"    widened by the store's remembered draw: {len(remembered)} "
                          f"{[(p, round(r[p]['speedup'], 4), [round(x, 4) for x in r[p]['speedup_ci']]) for p in remembered[:6]]}")
                print(f"    twins apart (%): median {statistics.median(apart.values()):.2f}, 90th "
                      f"{statistics.quantiles(apart.values(), n=10)[-1] if len(apart) > 1 else max(apart.values()):.2f}, "
                      f"largest {far}; intervals widened: {len(widened)} {widened[:6]}")
    if f"{group}-before" not in walls or f"{group}-after" not in walls:
        continue
    b, a = rows(f"{group}-before"), rows(f"{group}-after")
    common = sorted(set(b) & set(a))
    per_b = [b[p]["wall_s"] for p in common]
    per_a = [a[p]["wall_s"] for p in common]
    extra = [a[p]["wall_s"] - b[p]["wall_s"] for p in common]
    print(f"\n{group}: {len(common)} identity candidates (of {count})")
    print(f"  wall per candidate, median   before {statistics.median(per_b):6.2f} s   after {statistics.median(per_a):6.2f} s"
          f"   after - before: median {statistics.median(extra):+.2f} s, largest {max(extra):+.2f} s")
    print(f"  whole run (worker start included)  before {walls[group + '-before']:7.1f} s   after {walls[group + '-after']:7.1f} s"
          f"   ratio {walls[group + '-after'] / walls[group + '-before']:.3f}")
    for label, r in (("before", b), ("after", a)):
        speedups = [(p, j["speedup"], j["speedup_ci"]) for p, j in r.items() if j["speedup"] is not None]
        off = max(abs(s - 1) for _, s, _ in speedups)
        missing = [p for p, s, ci in speedups if not (ci[0] <= 1 <= ci[1])]
        bad = [f"{p}: {j['verdict']}" for p, j in r.items() if j["verdict"] != "correct"]
        print(f"  identity {label:<6}: {len(speedups)} timed, largest |speedup - 1| = {off:.4f}, "
              f"intervals without 1.00: {len(missing)} {missing[:6]}; not correct: {bad[:6]}")
# Each side's phases summed over its evaluations (kforge's own figures, the build before the
# boundary's too): where the boundary's time went, phase by phase.
for group in ("thirty", "level1"):
    sides = [side for side in SIDES if f"{group}-{side}" in walls]
    if not sides:
        continue
    print(f"\n{group}: phases summed over the evaluations (s)\n  {'side':<8} {'load':>7} {'correctness':>12} {'timing':>7} {'outside':>8} {'wall':>7}")
    for side in sides:
        r = rows(f"{group}-{side}").values()
        phase = lambda j, k: (j.get("phases_s") or {}).get(k, 0.0)
        sums = [sum(phase(j, k) for j in r) for k in ("load", "correctness", "timing")]
        wall = sum(j["wall_s"] for j in r)
        print(f"  {side:<8} {sums[0]:7.1f} {sums[1]:12.1f} {sums[2]:7.1f} {wall - sum(sums):8.1f} {wall:7.1f}")
# Where the time of each run's evaluations went, part by part (KFORGE_WORKER_PHASE_TRACE lines:
# "part=ms/count" summed over one evaluation), as medians over its candidates.
for name in sorted(n for n in walls if os.path.exists(f"{out}/boundary-{n}.phases")):
    # Each evaluation's parts, {part: (ms, count)}, read once for every summary below.
    lines = [l for l in open(f"{out}/boundary-{name}.phases") if ": phase trace: " in l]
    jobs = [{part: (float(ms), int(count))
             for part, _, figures in (f.rpartition("=") for f in l.rsplit(": ", 1)[1].split())
             for ms, count in [figures.split("/")]} for l in lines]
    parts = {}
    for job in jobs:
        for part, figures in job.items():
            parts.setdefault(part.replace("_", " "), []).append(figures)
    if not lines:
        continue
    # A part's figure is its calls' sum in one evaluation (three spares' starts, two twins'
    # calibrations): the last column is the median of one call, not to be read off the first.
    print(f"\n{name}: where an evaluation's time goes, medians over {len(lines)} evaluations (ms summed over its calls, the calls, ms a call)")
    for part, values in parts.items():
        print(f"  {part:<24} {statistics.median(v[0] for v in values):8.1f} ms  {statistics.median(v[1] for v in values):6.0f} calls"
              f"  {statistics.median(v[0] / v[1] for v in values if v[1]):8.1f} ms a call  (total {sum(v[0] for v in values) / 1000:6.1f} s)")
    # What a job waited for spares still starting (its candidate's and its twins' processes taken:
    # session 50's H200 put level 1's largest cost there), per evaluation.
    waits = sorted(sum(job.get(part, (0.0, 0))[0] for part in ("load_take_process", "twin_take_process")) for job in jobs)
    print(f"  {'waiting for spares':<24} {statistics.median(waits):8.1f} ms  90th {waits[int(0.9 * (len(waits) - 1))]:.1f} ms"
          f"  (total {sum(waits) / 1000:6.1f} s)")
    # How many spares each side took (each reports its start once, to the job that takes it) and
    # how many twins it served from the last problem's processes instead (session 53: a twin's
    # process outlives its problem), over the run: each spare is a CUDA context made beside the
    # jobs' loads.
    taken = sum(job.get("spare_start_prepare", (0.0, 0))[1] for job in jobs)
    reused = sum(job.get("twin_process_reused", (0.0, 0))[1] for job in jobs)
    twins = sum(job.get("twin_take_process", (0.0, 0))[1] for job in jobs)
    print(f"  {'spares taken':<24} {taken:8d}      twins' processes taken {twins}, of them the last problem's {reused}")
    # The twins' start and the candidate's calibration by how many spares were still making their
    # contexts when the load began (session 52: the twins' requests wait on the driver beside them).
    by_spares = {}
    for job in jobs:
        if "load_twin_start" in job:
            starting = job.get("load_beside_a_starting_spare", (0.0, 0))[1]
            by_spares.setdefault(starting, []).append((job["load_twin_start"][0], job.get("load_calibrate", (0.0, 0))[0]))
    if any(by_spares):
        for starting, grouped in sorted(by_spares.items()):
            print(f"  {f'beside {starting} starting spares':<24} {len(grouped):4d} jobs  twins' start median {statistics.median(t for t, _ in grouped):7.1f} ms"
                  f"  calibration median {statistics.median(c for _, c in grouped):7.1f} ms")
    # The job beyond its phases (worker/job_loop.cpp's "job costs" line): what evaluate() spent outside
    # load, correctness and timing, and the memory's release before the result is sent.
    # The release's two parts where the worker says them (since session 38): Python's collection,
    # torch's empty_cache.
    costs = [re.search(r"evaluate ([\d.]+) s \(phases ([\d.]+) s\), release ([\d.]+) s"
                       r"(?: \(collect ([\d.]+) s, empty_cache ([\d.]+) s\))?", l)
             for l in open(f"{out}/boundary-{name}.phases") if "job costs:" in l]
    costs = [m.groups() for m in costs if m]
    if costs:
        evaluate, phases, release = ([float(c[k]) for c in costs] for k in range(3))
        print(f"  {'outside the phases':<24} {statistics.median((e - p) * 1e3 for e, p in zip(evaluate, phases)):8.1f} ms"
              f"  (total {sum(e - p for e, p in zip(evaluate, phases)):6.1f} s)")
        print(f"  {'release after the job':<24} {statistics.median(r * 1e3 for r in release):8.1f} ms"
              f"  (total {sum(release):6.1f} s)")
        split = [(float(c[3]), float(c[4])) for c in costs if c[3] is not None]
        if split:
            print(f"  {'  of it gc.collect':<24} {statistics.median(c * 1e3 for c, _ in split):8.1f} ms"
                  f"  {'empty_cache':>12} {statistics.median(e * 1e3 for _, e in split):8.1f} ms")
if "thirty-after" not in walls or "thirty-before" not in walls:
    sys.exit(0)
b, a = rows("thirty-before"), rows("thirty-after")
print(f"\n{'problem':<40} {'wall s before':>13} {'after':>7} {'speedup before':>15} {'after':>8} {'after 95% CI':>17}")
for p in sorted(set(b) & set(a)):
    sb, sa = b[p]["speedup"], a[p]["speedup"]
    ci = a[p]["speedup_ci"] or [float("nan")] * 2
    fmt = lambda x: f"{x:.4f}" if x is not None else "-"
    print(f"{p:<40} {b[p]['wall_s']:>13.2f} {a[p]['wall_s']:>7.2f} {fmt(sb):>15} {fmt(sa):>8} [{ci[0]:.4f}, {ci[1]:.4f}]")
PY
  tee "$out/boundary-cost.txt"
