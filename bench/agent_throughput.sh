#!/usr/bin/env bash
# Issue 20's loop benchmark: kforge agent's own cost per attempt, with an instant scripted model
# (no model time), over a slice of level 1. Each problem's answers are distinct identity candidates
# (the problem itself, ModelNew = Model, with a variant comment so no two share a store key), so
# every attempt is built and evaluated afresh. Reports attempts per hour and the GPU's busy share
# (nvidia-smi sampled every 100 ms). Target (H200): at least 1,000 attempts per hour, GPU busy at
# least 70% of the run.
# Usage: bench/agent_throughput.sh [OUT_DIR]
#   AGENT_KIND: what the answers are (default identity):
#     identity  the problem itself as ModelNew (pure PyTorch, nothing to build)
#     inline    tests/realworld's correct load_inline CUDA candidates of level 1, a comment apart
#               (built once each, then from kforge's cache: "candidates already built");
#               AGENT_FRESH_BUILDS=1 puts the comment in the CUDA source, so every attempt builds
#     triton    tests/realworld's correct Triton candidates of level 1, a comment apart
#     native    solutions/level1/2_ReLU/cuda_native_vec4.cu, a comment apart (every attempt an nvcc build)
#   AGENT_PROBLEMS (level-1 ids; identity: default 12 problems; the other kinds: default every problem
#   their corpus has, or those of these ids), AGENT_ATTEMPTS per problem (default 8),
#   AGENT_DEVICE (default cuda), AGENT_POLICY (default metr), AGENT_MAX_TIME (timing cap per attempt, default 0.5),
#   AGENT_SUITE (a suite folder, default problems/; tests/problems has tiny level-1 problems for a CPU run),
#   AGENT_PROFILE (--profile: default off, the loop alone; new-best adds Nsight Compute's digest of
#   each round's new best, and the table its count and seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
kforge="$(pwd)/build/release/kforge"
dir=$(mktemp -d)
trap 'rm -rf "$dir"; [[ -n "${sampler:-}" ]] && kill "$sampler" 2>/dev/null || true' EXIT
attempts="${AGENT_ATTEMPTS:-8}"
problems="${AGENT_PROBLEMS:-1 2 3 4 5 6 7 8 9 10 17 19}"
only="${AGENT_PROBLEMS:-}"  # the other kinds: restricted to these ids where set
kind="${AGENT_KIND:-identity}"
args=()
suite="${AGENT_SUITE:-problems}"
suite="$(cd "$suite" && pwd)"
format=kernelbench
if [[ "$kind" == identity ]]; then
  for id in $problems; do
    file=$(ls "$suite"/level1/${id}_*.py | head -1)
    name="level1/$(basename "$file" .py)"
    args+=(--problem "$name")
    mkdir -p "$dir/answers/$name"
    for k in $(seq 1 "$attempts"); do
      { printf '```python\n'; cat "$file"; printf '\n\nModelNew = Model  # variant %d\n```\n' "$k"; } >"$dir/answers/$name/$(printf %03d "$k").md"
    done
  done
else
  [[ "$kind" == native ]] && format=cuda
  # One answer folder per problem, each answer the kind's candidate with a comment of its own.
  while read -r name; do args+=(--problem "$name"); done < <(python3 - "$kind" "$attempts" "$dir/answers" "${AGENT_FRESH_BUILDS:-0}" "$only" <<'PY'
import json, pathlib, re, sys
kind, attempts, answers, fresh = sys.argv[1], int(sys.argv[2]), pathlib.Path(sys.argv[3]), sys.argv[4] == "1"
only = set(sys.argv[5].split())  # level-1 ids; empty: every problem
picks = {}  # problem -> file (one candidate per problem)
if kind == "native":
    picks["level1/2_ReLU"] = pathlib.Path("solutions/level1/2_ReLU/cuda_native_vec4.cu")
else:
    for file, case in json.load(open("tests/realworld/expected.json")).items():
        source = open(f"tests/realworld/{file}").read()
        wanted = "import triton" in source if kind == "triton" else ("load_inline" in source and "cuda_sources" in source)
        problem = "level1/" + pathlib.Path(case["problem"]).stem
        if case["verdict"] == "correct" and case.get("gpu_only") and wanted and case["problem"].startswith("problems/level1/"):
            picks.setdefault(problem, pathlib.Path("tests/realworld") / file)
picks = {p: f for p, f in picks.items() if not only or p.split("/")[1].split("_")[0] in only}
if not picks:
    sys.exit(f"no {kind} candidate for problems {sorted(only)}")
for problem, path in sorted(picks.items()):
    source = path.read_text()
    folder = answers / problem
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(1, attempts + 1):
        if kind == "native":
            text, tag = source + f"\n// variant {k}\n", "cuda"
        elif kind == "inline" and fresh:
            # Inside the string given as cuda_sources, so its build key changes: a build per attempt.
            named = re.search(r"cuda_sources\s*=\s*\[?\s*(\w+)", source)
            text, n = (re.subn(rf"(\b{named.group(1)}\s*=\s*[rR]?(?:\"\"\"|\'\'\'))", rf"\1\n// variant {k}\n", source, count=1)
                       if named else (source, 0))
            if n == 0:
                print(f"{path}: no cuda_sources string found; its variants share one build", file=sys.stderr)
                text = source + f"\n# variant {k}\n"
            tag = "python"
        else:
            text, tag = source + f"\n# variant {k}\n", "python"
        (folder / f"{k:03d}.md").write_text(f"```{tag}\n{text}\n```\n")
    print(problem)
PY
)
fi
printf '[models.instant]\napi = "scripted"\nendpoint = "answers"\nmodel = "instant"\nconcurrency = 64\n' >"$dir/kforge.toml"

busy_log="$out/agent-throughput-gpu.csv"
if command -v nvidia-smi >/dev/null && [[ "${AGENT_DEVICE:-cuda}" != cpu ]]; then
  nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -lms 100 >"$busy_log" 2>/dev/null &
  sampler=$!
fi
t0=$(date +%s.%N)
(cd "$dir" && "$kforge" --db k.db agent --suite "$suite" --model instant "${args[@]}" --format "$format" --device "${AGENT_DEVICE:-cuda}" \
  --policy "${AGENT_POLICY:-metr}" --seeds 4 --width 4 --attempts "$attempts" --max-time "${AGENT_MAX_TIME:-0.5}" \
  --no-reverify --profile "${AGENT_PROFILE:-off}" --out run) >"$out/agent-throughput.log" 2>&1
t1=$(date +%s.%N)
[[ -n "${sampler:-}" ]] && kill "$sampler" 2>/dev/null || true
python3 - "$out" "$t0" "$t1" "$busy_log" "$kind${AGENT_FRESH_BUILDS:+ (fresh builds)}" <<'PY' | tee "$out/agent-throughput.txt"
import re, sys
out, t0, t1, busy, kind = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
log = open(f"{out}/agent-throughput.log").read()
attempts = len(re.findall(r"attempt #\d+ \(", log))
correct = len(re.findall(r"\): correct", log))
wall = t1 - t0
print(f"benchmark: kforge agent's own cost per attempt (instant scripted model, {kind} answers, level 1)")
print(f"attempts {attempts} ({correct} correct) in {wall:.1f} s: {attempts / wall * 3600:.0f} attempts per hour"
      + (f", {wall / attempts:.2f} s per attempt (attempts in flight together)" if attempts else ""))
profiled = re.search(r"(\d+) Nsight Compute profile\(s\) in (\d+) s", log)
if profiled:
    n, seconds = int(profiled.group(1)), int(profiled.group(2))
    print(f"Nsight Compute: {n} profile(s), {seconds} s in all, {seconds / n:.0f} s each")
try:
    samples = [float(x) for x in open(busy).read().split() if x.strip()]
    if samples:
        print(f"GPU busy (nvidia-smi utilization > 0) in {sum(s > 0 for s in samples) / len(samples):.0%} of "
              f"{len(samples)} samples; mean utilization {sum(samples) / len(samples):.0f}%")
except FileNotFoundError:
    print("GPU busy: not sampled (no nvidia-smi, or a CPU run)")
PY
