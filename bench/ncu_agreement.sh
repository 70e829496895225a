#!/usr/bin/env bash
# Benchmark (e) of docs/benchmarks.md: agreement with Nsight Compute. For single-kernel problems
# (a reference forward that launches one kernel, counted by torch.profiler), kforge's
# median candidate time (identity candidate, CUDA events, cold L2) against the median of ncu's
# gpu__time_duration over the same forward (--clock-control none, ncu's cache flush before each
# kernel). Target: every ratio within 5% of 1.
# Usage: bench/ncu_agreement.sh [OUT_DIR]   (writes bench-ncu.txt, bench-ncu.jsonl, bench-ncu.csv)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
kforge=build/release/kforge
python=$(tools/find-python.sh)
# Each entry: a built-in problem, and module constants to set so its input stays under 2 GiB
# (past that, PyTorch splits an elementwise or reduction op into two kernels for 32-bit indexing).
problems="${NCU_PROBLEMS:-level1/2_ReLU:ROWS=12288 level1/28_Sigmoid:BATCH=16 level1/29_Tanh:BATCH=32
level1/30_LeakyReLU:BATCH=16 level1/31_Softplus:ROWS=12000 level1/33_ELU:BATCH=4 level1/36_SiLU:TOKENS=32768
level1/37_GELU_Erf:BATCH=640 level1/7_Sum_Dim:ROWS=10240 level1/52_Mean_Dim:BATCH=40 level1/53_Max_Dim:TOKENS=10240
level1/6_Argmax_Dim:ROWS=12288 level1/4_Softmax_Rows level1/1_Square_Matmul}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
files=()
for entry in $problems; do
  p="${entry%%:*}"
  level=$(dirname "$p")
  name=$(basename "$p")
  mkdir -p "$dir/suite/$level" "$dir/candidates/$level/$name"
  {
    cat "problems/$p.py"
    if [[ "$entry" == *:* ]]; then
      printf '\n\n# bench/ncu_agreement.sh: sized for one kernel\n'
      tr ',' '\n' <<<"${entry#*:}" | sed 's/=/ = /'
    fi
  } >"$dir/suite/$level/$name.py"
  { cat "$dir/suite/$level/$name.py"; printf '\n\nModelNew = Model\n'; } >"$dir/candidates/$level/$name/identity.py"
  files+=("$dir/suite/$level/$name.py")
done
db="build/bench-ncu.db"
rm -f "$db" "$db"-*
"$kforge" --db "$db" eval --device cuda --json --suite "$dir/suite" "$dir/candidates" >"$out/bench-ncu.jsonl"
calls=5
"$python" bench/ncu_forward.py --count "${files[@]}" >"$out/bench-ncu.kernels"
ncu --clock-control none --nvtx --nvtx-include "kforge_forward/" --metrics gpu__time_duration.sum --csv --page raw \
  "$python" bench/ncu_forward.py "$calls" "${files[@]}" >"$out/bench-ncu.raw" 2>"$out/bench-ncu.stderr" || {
  tail -20 "$out/bench-ncu.stderr"; exit 1; }
grep '^"' "$out/bench-ncu.raw" >"$out/bench-ncu.csv"
"$python" - "$out/bench-ncu.jsonl" "$out/bench-ncu.csv" "$calls" "$out/bench-ncu.kernels" "${files[@]}" <<'PY' | tee "$out/bench-ncu.txt"
import csv, json, statistics, sys
jsonl, csv_path, calls, counts, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
per_forward = {path: int(n) for path, n in (line.split() for line in open(counts))}
kforge = {json.loads(line)["problem"]: json.loads(line) for line in open(jsonl)}
rows = list(csv.reader(open(csv_path)))
header, units, data = rows[0], rows[1], rows[2:]
col = header.index("gpu__time_duration.sum")
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0, "s": 1e3, "second": 1e3}[units[col]]
names = header.index("Kernel Name")
print("benchmark (e): kforge's candidate time vs Nsight Compute gpu__time_duration (--clock-control none)")
print(f"{'problem':<28} {'kernels':>7} {'kforge ms':>10} {'ncu ms':>10} {'ratio':>7}  kernel")
at, ratios = 0, []
for path in files:
    problem = "/".join(path.removesuffix(".py").split("/")[-2:])
    j, kernels = kforge.get(problem), per_forward[path]
    if j is None or j.get("cand_ms") is None:
        print(f"{problem:<28} kforge gave no time: {j and j['message'][:70]}")
        sys.exit(1)
    mine = data[at:at + kernels * calls]
    at += kernels * calls
    if kernels != 1:
        print(f"{problem:<28} {kernels:>7}  (not a single-kernel forward: left out)")
        continue
    ncu_ms = statistics.median(float(r[col].replace(",", "")) * scale for r in mine)
    ratio = j["cand_ms"] / ncu_ms
    ratios.append(ratio)
    print(f"{problem:<28} {kernels:>7} {j['cand_ms']:>10.4f} {ncu_ms:>10.4f} {ratio:>7.4f}  {mine[0][names][:40]}")
if at != len(data):
    print(f"kernel rows: {len(data)} profiled, {at} accounted for: the split is wrong")
    sys.exit(1)
print(f"{len(ratios)} single-kernel problems; ratio kforge/ncu median {statistics.median(ratios):.4f}, "
      f"range {min(ratios):.4f}-{max(ratios):.4f}; largest |ratio - 1| = {max(abs(r - 1) for r in ratios):.4f} (target < 0.05)")
PY
