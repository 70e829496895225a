#!/usr/bin/env bash
# Whether a candidate more exact than its reference passes: for each problem, a candidate that is the
# problem's own Model computed in fp64 (parameters, buffers and inputs cast inside the graph, so a
# training step's gradients reach the fp32 parameters) and rounded to fp32 at the end. It is right
# to fp32's rounding, so an evaluation that calls it incorrect holds candidates to the reference's
# own errors: cuDNN's TF32 convolutions (PyTorch's default), or a ReLU mask that flips where the
# reference's rounding crosses zero in a training step.
# Usage: bench/exact_candidates.sh [OUT_DIR]   (writes exact-candidates.txt and .jsonl there)
# EXACT_PROBLEMS: built-in problems as globs under problems/ (default: convolutions of levels 1 and
# 6, and the ReLU training steps).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bench}"
mkdir -p "$out"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
patterns="${EXACT_PROBLEMS:-level1/9_* level1/93_* level1/87_* level6/21_* level6/22_* level6/17_* level6/16_*}"
for problem in $(for p in $patterns; do ls problems/$p.py 2>/dev/null; done | sort -u); do
  level=$(basename "$(dirname "$problem")")
  name=$(basename "$problem" .py)
  mkdir -p "$dir/$level/$name"
  { cat "$problem"; cat <<'PY'


from torch.func import functional_call as _kforge_functional_call


class ModelNew(nn.Module):
    """The problem's Model in fp64, rounded to fp32 at the end (bench/exact_candidates.sh)."""

    def __init__(self, *args):
        super().__init__()
        self.inner = Model(*args)

    def forward(self, *inputs):
        wide = lambda t: t.double() if torch.is_tensor(t) and t.dtype == torch.float32 else t
        state = {n: wide(p) for n, p in self.inner.named_parameters()}
        state.update({n: wide(b) if b.dtype == torch.float32 else b.clone() for n, b in self.inner.named_buffers()})
        out = _kforge_functional_call(self.inner, state, tuple(wide(i) for i in inputs))
        narrow = lambda t: t.float() if torch.is_tensor(t) and t.dtype == torch.float64 else t
        return tuple(narrow(o) for o in out) if isinstance(out, (tuple, list)) else narrow(out)
PY
  } >"$dir/$level/$name/exact_fp64.py"
done
db="build/bench-exact.db"
rm -f "$db" "$db"-*
build/release/kforge --db "$db" eval --device "${EXACT_DEVICE:-cuda}" --json --max-time 1 "$dir" >"$out/exact-candidates.jsonl" || true
python3 - "$out/exact-candidates.jsonl" <<'PY' | tee "$out/exact-candidates.txt"
import json, sys
print("exact candidates (the problem's Model in fp64, rounded to fp32): verdict, largest error")
for line in open(sys.argv[1]):
    j = json.loads(line)
    err = j["max_abs_error"]
    print(f"{j['problem']:<36} {j['verdict']:<13} {'-' if err is None else format(err, '.2e'):>9}  {j['message'][:150]}")
PY
