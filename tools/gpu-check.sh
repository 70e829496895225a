#!/usr/bin/env bash
# The GPU test run, for the H200 machine (or any machine with a CUDA device): build, the unit and
# gpu tests (the cpu tests too with GPU_CHECK_CPU=1; CI runs them), `make demo`, then the
# benchmarks of docs/benchmarks.md. Full logs go to build/gpu-check/; the files worth keeping are
# copied to $OUT when it is set (the device tool brings back what fits); a summary table is printed last.
#   Under `timeout N` (N under the device call's limit), a run cut short still writes its summary
#   and $OUT's files, the step in flight named STOPPED (session 45 lost a whole call without it).
#   On the device machine: carry .deps/ (tools/fetch-deps.sh; and .prebuilt/ with GPU_CHECK_BUILD=lean,
#   below) and run tools/gpu-check.sh [tests|bench|all|STEPS]
#   STEPS is a comma list of: smoke solutions unit gpu cpu demo wall ident repeats ipcspeed plans knobs scratch coreswap timingtrace traceset level6trace modes agent profile ncu buildtimes splitcov boundary realworld drainprobe lint baseline sol remeasure level6 level6lint level6ident level6sol level6trust level6base exact level7
#   (level6: the training level's GPU lint, identity sweep and solutions, or one of them: level6lint,
#   level6ident, level6sol; level6trust: the trust corpora's training cases; level6trace: timing
#   traces of a few identities; level6base: its eager and compiled baselines, after the others)
#   (boundary builds the commit before the process boundary too: a device call of its own)
#   (lint and baseline cover the whole suite and are not in `all`: each wants a device call of its own)
set -uo pipefail
cd "$(dirname "$0")/.."
logs=build/gpu-check
mkdir -p "$logs"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
summary=()
running=""  # the step in flight and when it began, for finish() when a signal cuts it short
step() {  # step NAME COMMAND...: runs, logs to $logs/NAME.log, records pass/fail and seconds
  local name="$1"; shift
  local t0=$SECONDS
  running="$name $t0"
  if "$@" >"$logs/$name.log" 2>&1; then
    summary+=("$(printf '%-12s %-6s %5ss' "$name" ok $((SECONDS - t0)))")
  else
    summary+=("$(printf '%-12s %-6s %5ss  (see %s.log)' "$name" FAILED $((SECONDS - t0)) "$name")")
  fi
  running=""
}

gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)
# The device tool copies the working tree, and its copy's git metadata can be older than the files
# (session 47's summary named f8d4363 for files of 2b5f9b6): "-dirty" says the files are not that
# commit's; KFORGE_COMMIT=$(git rev-parse --short HEAD), set by the caller, names it exactly.
commit="${KFORGE_COMMIT:-$(git describe --always --dirty 2>/dev/null || echo unknown)}"
# The logs folder outlives a call on a warm machine (boundary_cost.sh adds to an earlier call's
# sides): the summary shows only what this run wrote, newer than this mark.
touch "$logs/.run-start"
this_run() {  # this_run FILE...: the text of those of the files that this run wrote
  local f
  for f in "$@"; do [[ "$f" -nt "$logs/.run-start" ]] && cat "$f"; done
  return 0
}
# The summary and $OUT's copies: at the end, or when a signal ends the run early. An outer
# `timeout` (under the device call's limit) signals the whole process group, so the step in flight
# ends too and is named here: a call cut short still brings back what it measured.
finish() {
  if [[ -n "$running" ]]; then
    summary+=("$(printf '%-12s %-6s %5ss  (cut short by a signal; see %s.log)' "${running% *}" STOPPED \
      $((SECONDS - ${running##* })) "${running% *}")")
    running=""
  fi
  for f in "${XDG_CACHE_HOME:-$HOME/.cache}"/kforge/logs/worker-*.log; do
    [[ -f "$f" ]] && { echo "== $f (last 60 lines)"; tail -60 "$f"; }
  done >"$logs/worker-tail.txt" 2>&1
  # What worker start-up and the kernel census cost (the wall-time benchmark's breakdown).
  cat "${XDG_CACHE_HOME:-$HOME/.cache}"/kforge/logs/worker-*.log 2>/dev/null |
    grep -hE "start costs|kernel launches recorded|sandbox:" | sed -E 's/candidate [0-9]+/candidate N/' |
    sort | uniq -c | sort -rn | head -30 >"$logs/worker-costs.txt"

  {
    echo "== tests =="
    this_run "$logs"/test-*.log | grep -E "tests passed|tests failed|\(Failed\)|Not Run|Skipped" | tail -12
    echo "== kforge build solutions =="
    this_run "$logs/build-solutions.log" | tail -25
    echo "== demo =="
    this_run "$logs/make-demo.log" | tail -28
    echo "== benchmarks =="
    this_run "$logs/bench-wall.txt" "$logs/bench-identity.txt" "$logs/bench-ncu.txt" "$logs/build-times.txt" \
      "$logs/identity-repeats.txt" "$logs/boundary-cost.txt" "$logs/split-coverage.txt" "$logs/core-swap.txt" "$logs/timing-trace.txt" "$logs/timing-trace-set.txt" "$logs/agent-throughput.txt" \
      "$logs/lint-remeasure.txt" "$logs/sol-remeasure.txt" "$logs/process-modes.txt" "$logs/ipc-speed.txt" "$logs/plans.txt" "$logs/shared-scratch.txt" "$logs/realworld-table.txt" "$logs/drain-probe.txt" "$logs/profile.txt" \
      "$logs/level6/bench-identity.txt" "$logs/level6-trace.txt" "$logs/level6-sol.txt" "$logs/sol-level6.txt" "$logs/exact-candidates.txt" "$logs/level7-lint.log"
    echo "== worker start and census costs (most frequent lines) =="
    head -12 "$logs/worker-costs.txt"
    echo "== steps (commit $commit; $gpu) =="
    printf '%s\n' "${summary[@]}"
  } >"$logs/summary.txt"
  # The device tool brings back few files: the summary, every log in one archive, and the store.
  if [[ -n "${OUT:-}" ]]; then
    cp "$logs/summary.txt" "$OUT/"
    tar czf "$OUT/logs.tar.gz" --exclude='*.db' --exclude='*.db-*' -C "$logs" .
    [[ -f "${baseline_db:-}" ]] && { want baseline || want sol || want level6base || want remeasure; } && cp "$baseline_db" "$OUT/baseline.db"
    # The real run's store and page, for docs/reports.md (the archive leaves stores out).
    want realworld && cp "$logs/realworld-h200.db" "$logs/realworld-h200.html" "$OUT/" 2>/dev/null
  fi
  cat "$logs/summary.txt"
}
trap 'finish; exit 124' TERM INT

what="${1:-all}"  # tests | bench | all | a comma list of steps: a device call is capped at 10 minutes
case "$what" in
  tests) what=solutions,unit,gpu,cpu,demo ;;
  bench) what=wall,ident,ncu,buildtimes ;;
  all) what=solutions,unit,gpu,cpu,demo,wall,ident,ncu,buildtimes ;;
esac
want() { [[ ",$what," == *",$1,"* ]]; }
# GPU_CHECK_BUILD=lean: only kforge and its worker (no tests), for a short call that runs no test.
# A lean build carried from an earlier call (.prebuilt/, tools/prebuilt.sh) is used instead where
# it was built from these sources; each lean call leaves its own as $OUT/prebuilt.tar.gz for the
# next (one file: the device tool brings back few; put it in .prebuilt/ and carry that beside .deps).
if [[ "${GPU_CHECK_BUILD:-}" == lean ]]; then
  if tools/prebuilt.sh restore >"$logs/build.log" 2>&1; then
    summary+=("$(printf '%-12s %-6s %5ss  (%s)' build ok 0 "prebuilt, sources $(tools/prebuilt.sh hash)")")
  else
    step build bash -c "make configure && cmake --build --preset release --target kforge _kforge_worker"
  fi
  [[ -n "${OUT:-}" ]] && tools/prebuilt.sh save "$OUT/prebuilt.tar.gz" >>"$logs/build.log" 2>&1
elif [[ "${GPU_CHECK_BUILD:-}" == gpu ]]; then
  # GPU_CHECK_BUILD=gpu: kforge, its worker and the GPU tests only (about a third of the full build
  # on a fresh machine), so the gpu step fits a call of its own.
  step build bash -c "make configure && cmake --build --preset release --target kforge _kforge_worker kforge_gpu_tests"
else
  step build make build
fi
# smoke: one honest load_inline candidate, first: does an evaluation work at all on this machine
# (the worker's log is kept beside it when it does not)?
smoke() {
  XDG_CACHE_HOME="$PWD/build/smoke-cache" build/release/kforge --db "$logs/smoke.db" eval --device cuda \
    --problem tests/problems/hack_target/level1/1_Add_ReLU.py tests/legit/add_relu_clamp.py
  local rc=$?
  cp build/smoke-cache/kforge/logs/worker-cuda0.log "$logs/smoke-worker.log" 2>/dev/null
  return $rc
}
want smoke && step smoke smoke
want solutions && step build-solutions build/release/kforge build solutions  # every load_inline and native solution, in parallel
want unit && step test-unit ctest --preset release -L unit
# GpuLint is the lint step's (the whole suite: a device call of its own). GPU_TESTS: a ctest -R
# regex to run fewer of the gpu tests in one call.
want gpu && step test-gpu ctest --preset release -L gpu -E GpuLint -R "${GPU_TESTS:-.}" --output-on-failure
want cpu && [[ "${GPU_CHECK_CPU:-0}" == 1 ]] && KFORGE_HEAVY_TESTS=1 step test-cpu ctest --preset release -L cpu
want demo && step make-demo make demo DEMO_DB="$logs/demo.db"
want wall && step bench-wall bench/eval_wall_time.sh "$logs"
want ident && step bench-ident bench/identity.sh "$logs"
want repeats && step bench-repeats bench/identity_repeats.sh "$logs"  # REPEAT_PROBLEMS, REPEAT_RUNS, REPEAT_ALT_ENV
want ncu && step bench-ncu bench/ncu_agreement.sh "$logs"
# BASELINE_DB: a store to go on from (kforge baseline skips what it holds: carry it back from an
# earlier call's $OUT to spread the suite's compiled baselines over several calls); BASELINE_MODES:
# the modes, in order, each over the whole suite before the next (default all three);
# BASELINE_SECONDS: stop after this long (what was measured stays). Split over every GPU.
baseline_db="${BASELINE_DB:-$logs/baseline.db}"
want sol && step sol build/release/kforge --db "$baseline_db" problems info --sol --device cuda
want lint && step lint tools/gpu-shards.sh "$logs" lint problems lint --device cuda
baselines() {
  local mode rc=0
  for mode in ${BASELINE_MODES//,/ }; do
    tools/gpu-shards.sh "$logs" "baseline-$mode" --db "$baseline_db" baseline --device cuda --modes "$mode" -- || rc=1
  done
  return $rc
}
BASELINE_MODES="${BASELINE_MODES:-eager,compile,max-autotune}"
export -f baselines; export logs baseline_db BASELINE_MODES
want baseline && step baseline timeout "${BASELINE_SECONDS:-100000}" bash -c baselines
# The export reads the store (what this call measured and what earlier ones did), also after a deadline.
want baseline && step baseline-export build/release/kforge --db "$baseline_db" baseline --device cuda --stored-only \
  --modes eager,compile,max-autotune --export "$logs/baselines"
# The store records the paths it loaded problems from, absolute on this machine: a store that is
# committed (baselines/H200/baselines.db) keeps them relative to the repository.
{ want baseline || want sol || want level6base || want remeasure; } && [[ -f "$baseline_db" ]] &&
  step store-paths python3 tools/store_relative_paths.py "$baseline_db"
want buildtimes && step bench-build bench/build_times.sh "$logs"
# level6lint, level6ident, level6sol: one part of level6 each (LEVEL6_LINT: which problems to lint;
# LEVEL6_IDENT: which to run as identities, globs under problems/).
{ want level6 || want level6lint; } &&
  step level6-lint build/release/kforge problems lint --device cuda ${LEVEL6_LINT:-level6/1-43}
{ want level6 || want level6ident; } &&
  IDENTITY_PROBLEMS="${LEVEL6_IDENT:-level6/*}" step level6-ident bench/identity.sh "$logs/level6"
want level6trust && KFORGE_CORPUS_CASES='^(train_|linear_tanh_train)' step level6-trust ctest --preset release -R GpuTrust --output-on-failure
# Level 6's hand-written solutions (their speedup is over eager: issue 23 wants 5 real backward kernels beating it).
level6_solutions() {
  local d; d=$(mktemp -d); mkdir -p "$d/level6" && cp -r solutions/level6/* "$d/level6/"
  build/release/kforge --db "$logs/level6-sol.db" eval --device cuda --json "$d" >"$logs/level6-sol.jsonl"
  python3 -c '
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l); s = j["speedup"]
    name, cand, verdict = j["problem"], j["candidate"].split("/")[-1], j["verdict"]
    note = "" if verdict == "correct" else j["message"][:100]
    print(f"{name:<34} {cand:<28} {verdict:<13} {s if s is None else round(s, 3)} {note}")
' "$logs/level6-sol.jsonl" | tee "$logs/level6-sol.txt"
}
export -f level6_solutions
{ want level6 || want level6sol; } && step level6-sol bash -c level6_solutions
# Level 7 (multi-rank) on a machine with two GPUs or more: its lint runs both ranks over NCCL and
# times the slowest (sizing); with one GPU it lints on the CPU and says so.
want level7 && step level7-lint build/release/kforge problems lint --device cuda level7/1-13
want exact && step bench-exact bench/exact_candidates.sh "$logs"
# The timing trace of level-6 identities (LEVEL6_TRACE: problem numbers; the launch-bound steps
# and one control), to see where their identity speedups leave 1.00.
level6_trace() {
  local n problem name dir
  for n in ${LEVEL6_TRACE:-1 34 36 38}; do
    problem=$(ls problems/level6/${n}_*.py); name=$(basename "$problem" .py)
    dir="$logs/level6-trace/$name"; mkdir -p "$dir"
    { cat "$problem"; printf '\n\nModelNew = Model\n'; } >"$dir/identity.py"
    echo "== $name"
    TRACE_MODES=eager TRACE_PROBLEM="$problem" TRACE_CANDIDATE="$dir/identity.py" bench/timing_trace.sh "$dir" | tail -1
  done | tee "$logs/level6-trace.txt"
}
export -f level6_trace
want level6trace && step level6-trace bash -c level6_trace
# Eager, then compiled through AOTAutograd; level6base is a device call of its own (BASELINE_SECONDS caps it).
# LEVEL6_BASE: which problems to measure (default all 43; the export still writes every stored one).
# BASELINE_DEADLINE (seconds since the epoch) instead: stop then, whatever the steps before took.
# The seconds left to BASELINE_DEADLINE (at least 10), into BASELINE_SECONDS, before each step it caps.
seconds_to_deadline() {
  [[ -n "${BASELINE_DEADLINE:-}" ]] || return 0
  local left=$(( BASELINE_DEADLINE - $(date +%s) ))
  BASELINE_SECONDS=$(( left > 10 ? left : 10 ))
}
seconds_to_deadline
# The compiled steps are compiled first, four shards at once into stores thrown away (CPU work:
# inductor's and AOTAutograd's caches keep what they compile), so the timed run, one problem at a
# time as baselines must be, reuses the compiled code instead of compiling 43 steps in a row.
warm_compile_cache() {
  local i
  for i in 0 1 2 3; do
    build/release/kforge --db "$logs/compile-warm-$i.db" baseline --device cuda --modes compile --trials 1 \
      --shard "$i/4" ${LEVEL6_BASE:-level6/1-43} >"$logs/compile-warm-$i.log" 2>&1 &
  done
  wait
}
export -f warm_compile_cache
want level6base && export TORCHINDUCTOR_CACHE_DIR="${TORCHINDUCTOR_CACHE_DIR:-$PWD/build/inductor-cache}"  # one cache for both
want level6base && step level6-compile-warm timeout "$(( ${BASELINE_SECONDS:-100000} / 2 ))" bash -c warm_compile_cache
seconds_to_deadline
want level6base && step level6-baseline timeout "${BASELINE_SECONDS:-100000}" build/release/kforge --db "$baseline_db" baseline --device cuda ${LEVEL6_BASE:-level6/1-43} --modes eager,compile
want level6base && step level6-baseline-export build/release/kforge --db "$baseline_db" baseline --device cuda --stored-only \
  --modes eager,compile --export "$logs/baselines-level6" level6/1-43
# Level 6's speed of light (FLOPs and bytes of forward plus backward against the H200's measured
# peaks), for baselines/H200/sol.txt; LEVEL6_SOL_SECONDS caps it (default 120).
want level6base && step level6-sol-figures timeout "${LEVEL6_SOL_SECONDS:-120}" bash -c \
  "build/release/kforge --db '$baseline_db' problems info --sol --device cuda level6/1-43 | tee '$logs/sol-level6.txt'"
# A few problems changed since their last measurement (REMEASURE: ids as `kforge problems` takes
# them, e.g. "level3/10 level3/12"): their GPU lint, SOL, eager and then compiled baselines into
# BASELINE_DB (REMEASURE_SECONDS caps each baseline mode, default 120), for baselines/H200/.
remeasure() {
  build/release/kforge problems lint --device cuda $REMEASURE | tee "$logs/lint-remeasure.txt"
  build/release/kforge --db "$baseline_db" problems info --sol --device cuda $REMEASURE | tee "$logs/sol-remeasure.txt"
  local mode
  for mode in eager compile; do
    timeout "${REMEASURE_SECONDS:-120}" build/release/kforge --db "$baseline_db" baseline --device cuda --modes "$mode" -- $REMEASURE
  done
}
export -f remeasure; export REMEASURE
want remeasure && step remeasure bash -c remeasure
want boundary && step bench-boundary bench/boundary_cost.sh "$logs"
want splitcov && step bench-splitcov bench/split_coverage.sh "$logs"
# tests/realworld as one folder in a fresh cache (issue 19's throughput); its store and HTML report stay in $logs.
want realworld && step bench-realworld bash -c "$(tools/find-python.sh) bench/realworld_throughput.py $logs | tee $logs/realworld-table.txt"
# How a stopped candidate's GPU work can be known to have ended: time slices, the driver's lock.
want drainprobe && step bench-drainprobe bash -c "timeout 120 $(tools/find-python.sh) -u bench/gpu_drain_probe.py | tee $logs/drain-probe.txt"
# How fast a kernel runs on memory another process owns: legacy CUDA IPC against a VMM import (issue 18's arena).
want ipcspeed && step bench-ipcspeed bash -c "$(tools/find-python.sh) bench/ipc_mapping_speed.py | tee $logs/ipc-speed.txt"
# plans: level 1's transposed convolutions in fresh processes, inputs in torch memory and in a VMM
# mapping as the arena holds a candidate's (bench/plan_per_process.py; PLAN_PROBLEMS to choose,
# PLAN_PROCESSES how many fresh processes each, default 4; PLAN_WHERE "torch" for torch memory
# only; PLAN_ENVS a list of settings to compare the processes' spread under, "-" for none, e.g.
# "- PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True CUDA_MODULE_LOADING=EAGER").
plans() {
  local py p where setting
  py=$(tools/find-python.sh)
  for p in ${PLAN_PROBLEMS:-75 76 77 83}; do  # a number is level 1's; or levelN/M (level3/6: VGG16)
    [[ "$p" == */* ]] || p="level1/$p"
    for setting in ${PLAN_ENVS:--}; do
      [[ "$setting" == - ]] && setting=KFORGE_PLAN_SETTING=none
      for where in "" vmm; do
        [[ "${PLAN_WHERE:-both}" == torch && -n "$where" ]] && continue
        (cd bench && env "$setting" "$py" -u plan_per_process.py ../problems/"$p"_*.py "${PLAN_PROCESSES:-4}" 0 $where)
      done
    done
  done
}
want plans && step bench-plans bash -c "$(declare -f plans); plans | tee $logs/plans.txt"
# knobs: whether those two speeds are two cuDNN engine configurations under one kernel name
# (bench/plan_knobs.py: cuDNN's API log per fresh process; extracts in $logs/knobs).
want knobs && step bench-knobs bash -c "cd bench && $(tools/find-python.sh) -u plan_knobs.py ../problems/${KNOB_PROBLEM:-level1/83}_*.py ${PLAN_PROCESSES:-6} ../$logs/knobs | tee ../$logs/knobs.txt"
# scratch: where the per-process draw comes from: fresh processes time a forward on memory of their
# own or all on one physical allocation the parent shares, each exec'd (randomised or under
# setarch -R) or forked from a zygote, beside the parent's own drift (bench/shared_scratch_probe.py;
# SCRATCH_PROBLEMS as level-1 numbers or levelN/M, default 66 76; SCRATCH_PROCESSES per mode, default 6).
scratch() {
  local py p
  py=$(tools/find-python.sh)
  for p in ${SCRATCH_PROBLEMS:-66 76}; do
    [[ "$p" == */* ]] || p="level1/$p"
    timeout 300 "$py" -u bench/shared_scratch_probe.py problems/"$p"_*.py "${SCRATCH_PROCESSES:-6}" 2>&1 | grep -v "CudaIPCTypes"
  done
}
want scratch && step bench-scratch bash -c "$(declare -f scratch); scratch | tee $logs/shared-scratch.txt"
want coreswap && step bench-coreswap bench/core_swap.sh "$logs"
want timingtrace && step bench-timingtrace bench/timing_trace.sh "$logs"
want traceset && step bench-traceset bench/timing_trace_set.sh "$logs"
want agent && step bench-agent bench/agent_throughput.sh "$logs"
# kforge profile on one load_inline candidate, in the candidate sandbox and without it (issue 20).
profile_once() {
  local how="$1"; shift
  { echo "== kforge profile $how"; build/release/kforge profile "$@" --problem tests/problems/hack_target/level1/1_Add_ReLU.py \
      tests/legit/add_relu_inline_cuda_vec4.py 2>&1; echo "exit $?"; } >>"$logs/profile.txt"
}
# kforge agent --profile on the same candidate as a scripted model's one answer: the digest it stores.
agent_profile_once() {
  local d root; d=$(mktemp -d); root=$(pwd)
  mkdir -p "$d/answers"
  { printf '```python\n'; cat tests/legit/add_relu_inline_cuda_vec4.py; printf '```\n'; } >"$d/answers/1.md"
  printf '[models.instant]\napi = "scripted"\nendpoint = "answers"\nmodel = "instant"\n' >"$d/kforge.toml"
  { echo "== kforge agent --profile new-best"
    (cd "$d" && "$root/build/release/kforge" --db k.db agent --suite "$root/tests/problems/hack_target" --problem level1/1 \
       --model instant --format kernelbench --device cuda --attempts 1 --no-reverify --profile new-best --profile-unconfined \
       --max-time 0.5 --out run 2>&1)
    echo "exit $?"
    python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select digest from agent_nodes').fetchone()[0])" "$d/k.db"
  } >>"$logs/profile.txt" 2>&1
}
# The confined profile again under strace (from .deps, tools/fetch-deps.sh), its failed calls only:
# what the candidate sandbox denies Nsight Compute's injected code (issue 20; the machine has no strace).
profile_traced() {
  local strace=.deps/prefix/usr/bin/strace
  [[ -x $strace ]] || { echo "== strace: not in .deps (tools/fetch-deps.sh)" >>"$logs/profile.txt"; return 0; }
  LD_LIBRARY_PATH=.deps/prefix/usr/lib/x86_64-linux-gnu timeout 300 "$strace" -f -Z -E LD_LIBRARY_PATH -o "$logs/profile-strace.txt" \
    build/release/kforge profile --problem tests/problems/hack_target/level1/1_Add_ReLU.py tests/legit/add_relu_inline_cuda_vec4.py \
    >>"$logs/profile-strace-run.txt" 2>&1
  { echo "== kforge profile confined, under strace -f -Z (exit $?): denied calls, then the last failed ones"
    grep -E "EACCES|EPERM|SIGSYS" "$logs/profile-strace.txt" | grep -v "^[0-9]* +++" | head -40
    echo "..."; tail -25 "$logs/profile-strace.txt"; } >>"$logs/profile.txt"
}
export -f profile_once agent_profile_once profile_traced
want profile && { : >"$logs/profile.txt"; step profile bash -c 'profile_once confined; profile_once unconfined --unconfined; agent_profile_once; profile_traced'; }
# Whether torch runs a problem at one speed in every process (MODES_PROBLEMS, files; by default
# level3/30's LSTM at its old, host-bound size (batch 64), then level 3's recurrent problems as
# resized in session 24 and two more: docs/benchmarks.md, sessions 23 and 24).
want modes && step bench-modes bash -c "$(tools/find-python.sh) bench/process_modes.py \
  ${MODES_PROBLEMS:-problems/level3/30_LSTM_Stacked_Last_Step.py:BATCH=64,SEQ_LEN=128,HIDDEN_SIZE=768 problems/level3/3[0-5]_*.py problems/level3/44_*.py problems/level3/45_*.py} \
  --processes ${MODES_PROCESSES:-3} ${MODES_ARGS:-} | tee $logs/process-modes.txt"
finish
