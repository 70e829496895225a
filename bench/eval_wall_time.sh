#!/usr/bin/env bash
# Benchmark (a) of docs/benchmarks.md: wall time of `kforge eval` for one already-built candidate
# of a level-1 problem whose inputs are 1 GB or more (level1/2_ReLU, 24576 x 24576 fp32 = 2.4 GB),
# against upstream's 60-75 s for such problems (REFERENCE.md section 7): five runs that each start
# a worker, then five through a warm `kforge serve` (eval --server).
# Usage: bench/eval_wall_time.sh [OUT_DIR]   (writes bench-wall.txt and bench-wall.jsonl there)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
rm -f "$out"/bench-wall*.jsonl
kforge=build/release/kforge
db="build/bench-wall.db"
rm -f "$db" "$db"-*
candidate=$(ls solutions/level1/2_ReLU/cuda_*.py | head -1)

# Build once (load_inline's cache), untimed: the benchmark is about evaluating, not compiling.
"$kforge" --db "$db" eval --device cuda --problem level1/2 "$candidate" --json >"$out/bench-wall-build.jsonl"

log_dir="${XDG_CACHE_HOME:-$HOME/.cache}/kforge/logs"
log_lines_before=$(cat "$log_dir"/worker-cuda*.log 2>/dev/null | wc -l)
walls=()
for i in 1 2 3 4 5; do
  t0=$(date +%s%N)
  "$kforge" --db "$db" eval --device cuda --force --fallback strict --problem level1/2 "$candidate" --json >>"$out/bench-wall.jsonl"
  t1=$(date +%s%N)
  walls+=("$(python3 -c "print(f'{($t1 - $t0) / 1e9:.2f}')")")
done
median=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 3p)

# The same through a warm server: its worker is started once, before the first timed run.
socket="$(mktemp -d)/serve.sock"
"$kforge" serve --device cuda --socket "$socket" 2>"$out/bench-wall-serve.log" &
server=$!
for _ in $(seq 600); do grep -q "listening at" "$out/bench-wall-serve.log" && break; sleep 0.2; done
served=()
for i in 1 2 3 4 5; do
  t0=$(date +%s%N)
  "$kforge" --db "$db" eval --server --socket "$socket" --force --fallback strict --problem level1/2 "$candidate" \
    --json >>"$out/bench-wall-served.jsonl"
  t1=$(date +%s%N)
  served+=("$(python3 -c "print(f'{($t1 - $t0) / 1e9:.2f}')")")
done
kill -TERM "$server"; wait "$server" || true
served_median=$(printf '%s\n' "${served[@]}" | sort -n | sed -n 3p)
# What a bare worker start costs on this machine: a Python process importing torch and creating a
# CUDA context, the floor under any evaluation that starts a fresh worker.
python=$(tools/find-python.sh)
t0=$(date +%s%N)
"$python" -c 'import torch; torch.zeros(1, device="cuda"); torch.cuda.synchronize()'
t1=$(date +%s%N)
start_floor=$(python3 -c "print(f'{($t1 - $t0) / 1e9:.2f}')")
{
  echo "benchmark (a): kforge eval wall time, level1/2_ReLU (2.4 GB input), built candidate $(basename "$candidate")"
  echo "runs (s): ${walls[*]}"
  echo "median wall: ${median} s   (upstream: 60-75 s on such problems; target < 5 s)"
  echo "through a warm kforge serve (eval --server), runs (s): ${served[*]}"
  echo "median wall, served: ${served_median} s"
  echo "of which a bare python + import torch + CUDA context costs: ${start_floor} s"
  echo "kforge's worker start (hello received) and stop, from the worker log:"
  cat "$log_dir"/worker-cuda*.log | tail -n +"$((log_lines_before + 1))" | grep -E "^kforge: worker [0-9]+ (ready|stopped)" | sed 's/^/  /' || true
  python3 - "$out/bench-wall.jsonl" "$out/bench-wall-served.jsonl" <<'PY'
import json, sys
for path in sys.argv[1:]:
    print(f"  {path.rsplit('/', 1)[-1]}:")
    for line in open(path):
        j = json.loads(line)
        print(f"  verdict={j['verdict']} speedup={j['speedup']} ci={j['speedup_ci']} samples={j['samples']} "
              f"job_wall={j['wall_s']:.2f}s phases={j.get('phases_s')}")
PY
} | tee "$out/bench-wall.txt"
