#!/bin/bash
export TORCH_EXTENSIONS_DIR=/tmp/ext TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 MAX_JOBS=4
nvidia-smi --query-gpu=name,memory.total --format=csv; python3 -c "import torch;print(torch.__version__)"
G=tests/_tmp_gpu
CUDA_FILES=$(ls solutions/level*/*/cuda_*.py solutions/level*/*/wrong_cuda_*.py tests/candidates/cuda_correct.py tests/candidates/cuda_illegal_address.py)
mkdir -p /tmp/blogs; t=$(date +%s)
for f in $CUDA_FILES; do python3 -c "
import importlib.util; s=importlib.util.spec_from_file_location('m','$f'); m=importlib.util.module_from_spec(s); s.loader.exec_module(m); print('BUILT $f')" > /tmp/blogs/build_$(basename $(dirname $f))_$(basename $f .py).log 2>&1 & done; wait
echo "builds took $(( $(date +%s) - t )) s"; grep -L BUILT /tmp/blogs/build_*.log | while read l; do echo "FAILED BUILD $l"; tail -20 $l; done
for f in $(ls solutions/level*/*/*.py); do p=problems/$(echo $f | cut -d/ -f2)/$(echo $f | cut -d/ -f3).py; timeout 120 python3 $G/gpu_check.py $p $f 2>&1 | grep -v Warning; done
python3 $G/prob_time.py problems/level*/*.py tests/problems/level1/*.py
for f in tests/candidates/*.py; do printf "%-45s expect=%-14s " $f "$(head -1 $f | cut -d' ' -f3)"; r=$(timeout 20 python3 $G/mini_harness.py tests/problems/level1/1_Tiny_Add_ReLU.py $f cuda 2>&1); rc=$?; v=$(echo "$r" | grep VERDICT | head -1); [ -z "$v" ] && v="(no verdict) rc=$rc"; echo "$v"; done
