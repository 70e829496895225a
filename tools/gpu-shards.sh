#!/usr/bin/env bash
# Runs a kforge command over the whole suite split across every GPU of the machine (one process
# per GPU, each on its own share of the cores, the problem ids appended to its arguments), waits
# for all, and prints their logs in GPU order. tools/gpu-check.sh's lint and baseline steps use it.
#   tools/gpu-shards.sh LOGDIR NAME KFORGE-ARGS...    (logs: LOGDIR/NAME-gpuN.log; exit 1 if any failed)
set -uo pipefail
cd "$(dirname "$0")/.."
logs="$1" name="$2"
shift 2
kforge=build/release/kforge
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
((gpus > 0)) || gpus=1
mapfile -t ids < <("$kforge" problems list --json |
  python3 -c 'import json, sys; [print(p["id"]) for p in map(json.loads, sys.stdin) if not p.get("error")]')
cores=$(($(nproc) / gpus))
# A warm machine keeps LOGDIR between calls: an earlier call's shard logs (another GPU count) must not be read as this one's.
rm -f "$logs/$name"-gpu*.log
for ((g = 0; g < gpus; g++)); do
  shard=()
  for ((i = g; i < ${#ids[@]}; i += gpus)); do shard+=("${ids[i]}"); done
  CUDA_VISIBLE_DEVICES=$g taskset -c $((g * cores))-$(((g + 1) * cores - 1)) \
    "$kforge" "$@" "${shard[@]}" >"$logs/$name-gpu$g.log" 2>&1 &
done
rc=0
for ((g = 0; g < gpus; g++)); do wait -n || rc=1; done
cat "$logs/$name"-gpu*.log
exit $rc
