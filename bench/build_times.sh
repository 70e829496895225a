#!/usr/bin/env bash
# Build benchmarks of issue 3 (docs/benchmarks.md): cold and cached build of a small native cuda
# candidate, of a native cpp candidate, of a load_inline candidate (through torch, as upstream),
# and the wall time of `kforge build` on 100 distinct native cuda candidates; load_inline both
# through torch (upstream's path) and through kforge's cache. Each cold build uses a
# fresh cache folder. Usage: bench/build_times.sh [OUT_DIR] [--skip-load-inline]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
skip_inline="${2:-}"
mkdir -p "$out"
kforge="$PWD/build/release/kforge"
arch="${KFORGE_ARCH:-sm_90a}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }
secs() { python3 -c "print(f'{($2 - $1) / 1e9:.2f}')"; }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

one_build() {  # one_build FILE CACHE_HOME -> seconds of `kforge build` on a folder holding FILE
  local file=$1 cache=$2 dir
  dir=$(mktemp -d -p "$work")
  mkdir -p "$dir/level1/1_X"
  cp "$file" "$dir/level1/1_X/"
  local t0 t1
  t0=$(now)
  XDG_CACHE_HOME="$cache" "$kforge" build --arch "$arch" --json "$dir" >>"$out/build-times.jsonl"
  t1=$(now)
  secs "$t0" "$t1"
}

cold_cuda=(); cold_cpp=(); cached_cuda=()
for i in 1 2 3 4 5; do
  # A distinct source each time (a comment), so each cold build really compiles.
  sed "1i // variant $i" solutions/level1/2_ReLU/cuda_native_vec4.cu >"$work/relu_$i.cu"
  sed "1i // variant $i" solutions/level1/7_Sum_Dim/cpp_native_rowsum.cpp >"$work/rowsum_$i.cpp"
  cold_cuda+=("$(one_build "$work/relu_$i.cu" "$work/cache-cuda-$i")")
  cached_cuda+=("$(one_build "$work/relu_$i.cu" "$work/cache-cuda-$i")")
  cold_cpp+=("$(one_build "$work/rowsum_$i.cpp" "$work/cache-cpp-$i")")
done

inline_lines=("load_inline builds: skipped")
if [[ "$skip_inline" != --skip-load-inline ]]; then
  python=$(tools/find-python.sh)
  export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
  inline_src=solutions/level1/2_ReLU/cuda_vec4.py
  # Upstream's path: torch's load_inline with its ninja build, in a fresh extension folder.
  t0=$(now)
  TORCH_EXTENSIONS_DIR="$work/torch-ext" CUDA_VISIBLE_DEVICES= "$python" -c '
import importlib.util, sys
spec = importlib.util.spec_from_file_location("probe", sys.argv[1])
spec.loader.exec_module(importlib.util.module_from_spec(spec))' "$inline_src" >/dev/null 2>&1
  t1=$(now)
  torch_secs=$(secs "$t0" "$t1")
  # kforge's path (`kforge build`), each variant a distinct CUDA source (a comment inside it). The
  # first build in a fresh cache also makes the precompiled torch header, once per machine.
  inline_cache="$work/cache-inline"
  variant() { sed "0,/__global__/s//\/* variant $1 *\/ __global__/" "$inline_src" >"$work/inline_$1.py"; echo "$work/inline_$1.py"; }
  first=$(one_build "$(variant 0)" "$inline_cache")
  first_build=$(tail -1 "$out/build-times.jsonl")
  cold_inline=(); cached_inline=(); strategies=()
  for i in 1 2 3 4 5; do
    f=$(variant "$i")
    cold_inline+=("$(one_build "$f" "$inline_cache")")
    strategies+=("$(tail -1 "$out/build-times.jsonl" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["status"] + ":" + j["seconds"] + "s:" + j["detail"].split(": ")[-1][:40])')")
    cached_inline+=("$(one_build "$f" "$inline_cache")")
  done
  inline_lines=(
    "load_inline cold build through torch (upstream's path), $(basename "$inline_src"): ${torch_secs} s (one run)"
    "load_inline first build in a fresh kforge cache (includes the one-time precompiled torch header): ${first} s; ${first_build}"
    "load_inline cold build through kforge (kforge build, 1 candidate, python start included), 5 runs: ${cold_inline[*]} s; median $(median "${cold_inline[@]}") s (target < 10 s)"
    "  per run (status:build seconds inside the worker:strategy): ${strategies[*]}"
    "load_inline cached build through kforge, 5 runs: ${cached_inline[*]} s; median $(median "${cached_inline[@]}") s"
  )
fi

# 100 distinct candidates, built by one `kforge build` on every core.
mkdir -p "$work/hundred"
for i in $(seq 1 100); do
  mkdir -p "$work/hundred/level1/1_X"
  sed "1i // variant $i" solutions/level1/2_ReLU/cuda_native_vec4.cu >"$work/hundred/level1/1_X/relu_$i.cu"
done
t0=$(now)
XDG_CACHE_HOME="$work/cache-hundred" "$kforge" build --arch "$arch" --json "$work/hundred" >"$out/build-hundred.jsonl"
t1=$(now)
built=$(grep -c '"status":"built"' "$out/build-hundred.jsonl" || true)

{
  echo "build benchmarks ($(nproc) cores, target $arch)"
  echo "native cuda cold build (kforge build, 1 candidate), 5 runs: ${cold_cuda[*]} s; median $(median "${cold_cuda[@]}") s (target < 3 s)"
  echo "native cuda cached build, 5 runs: ${cached_cuda[*]} s; median $(median "${cached_cuda[@]}") s"
  echo "native cpp cold build, 5 runs: ${cold_cpp[*]} s; median $(median "${cold_cpp[@]}") s"
  printf '%s\n' "${inline_lines[@]}"
  echo "100 distinct native cuda candidates: $(secs "$t0" "$t1") s wall, $built built"
} | tee "$out/build-times.txt"
