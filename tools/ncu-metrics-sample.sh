#!/usr/bin/env bash
# Records what `kforge profile` parses: one candidate's forward under Nsight Compute with the
# digest's metrics, as ncu writes them (--csv --page raw), with and without the candidate sandbox,
# for tests/unit's parser sample. On the GPU machine, after a build:
#   tools/ncu-metrics-sample.sh OUT_DIR [PROBLEM CANDIDATE]
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:?OUT_DIR}"
problem="${2:-tests/problems/hack_target/level1/1_Add_ReLU.py}"
candidate="${3:-tests/legit/add_relu_inline_cuda_vec4.py}"
python=$(tools/find-python.sh)
metrics=$(tr -d ' \n' <<'M'
gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,
gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,
sm__maximum_warps_per_active_cycle_pct,launch__registers_per_thread,launch__block_size,launch__grid_size,
launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,
lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,
dram__bytes_read.sum,dram__bytes_write.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,
regex:sm__pipe_tensor_op_.*_cycles_active.avg.pct_of_peak_sustained_active,
regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio
M
)
scratch=$(mktemp -d)
export KFORGE_BINARY="$PWD/build/release/kforge" KFORGE_WORKER_SCRATCH="$scratch" TMPDIR="$scratch"
export KFORGE_WORKER_WRITABLE="${XDG_CACHE_HOME:-$HOME/.cache}/kforge/build:$HOME/.nv:$HOME/.triton"
ncu --version >"$out/ncu-version.txt" 2>&1
for sandbox in 0 files 1; do
  t0=$SECONDS
  KFORGE_PROFILE_SANDBOX=$sandbox timeout 180 ncu --csv --page raw --nvtx --nvtx-include "kforge_forward/" \
    --metrics "$metrics" --log-file "$out/ncu-sandbox$sandbox.csv" \
    "$python" build/release/python/kforge_profile.py "$problem" "$candidate" >"$out/ncu-app-sandbox$sandbox.txt" 2>&1
  echo "sandbox=$sandbox exit=$? seconds=$((SECONDS - t0))" | tee -a "$out/ncu-version.txt"
done
