#!/usr/bin/env bash
# Whether the cores the two sides time on move host-bound identity speedups (issue 18: level3/30
# LSTM and level3/45 MoE sat 5% from 1.00 in one run and on the other side of it in another).
# Runs bench/identity.sh on a few host-bound problems with the timing CPUs as chosen, then swapped
# (KFORGE_WORKER_TIMING_CPUS=REF,CAND), ROUNDS times, and prints one table. If the speedup flips
# with the swap, the cores differ; if not, the process does.
# Usage: bench/core_swap.sh [OUT_DIR]   CORE_SWAP_CPUS="1,2 2,1" ROUNDS=2
#   CORE_SWAP_PROBLEMS: globs under problems/ (default the LSTM, the MoE and ResNet18)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
lscpu -e >"$out/core-swap-lscpu.txt" 2>&1 || true
export IDENTITY_PROBLEMS="${CORE_SWAP_PROBLEMS:-level3/30_* level3/45_* level3/9_*}"
rounds="${ROUNDS:-2}"
rm -f "$out"/core-swap-*.jsonl
for round in $(seq 1 "$rounds"); do
  for cpus in ${CORE_SWAP_CPUS:-1,2 2,1}; do
    KFORGE_WORKER_TIMING_CPUS="$cpus" bench/identity.sh "$out" >/dev/null
    sed "s/^{/{\"cpus\":\"$cpus\",\"round\":$round,/" "$out/bench-identity.jsonl" >"$out/core-swap-$round-${cpus/,/-}.jsonl"
  done
done
python3 - "$out" <<'PY' | tee "$out/core-swap.txt"
import glob, json, sys
rows = [json.loads(l) for f in sorted(glob.glob(sys.argv[1] + "/core-swap-*.jsonl")) for l in open(f)]
print("identity of host-bound problems by timing CPUs (reference,candidate); median ratio [95% CI]")
print(f"{'problem':<40} {'cpus':>5} {'round':>5} {'speedup':>8} {'95% CI':>17} {'pairs':>6}")
for j in sorted(rows, key=lambda j: (j["problem"], j["cpus"], j["round"])):
    s, ci = j["speedup"], j["speedup_ci"]
    if s is None:
        print(f"{j['problem']:<40} {j['cpus']:>5} {j['round']:>5} {j['verdict']}")
        continue
    print(f"{j['problem']:<40} {j['cpus']:>5} {j['round']:>5} {s:>8.4f} [{ci[0]:.4f}, {ci[1]:.4f}] {j['samples']:>6}")
PY
echo "== lscpu -e"; head -20 "$out/core-swap-lscpu.txt"
