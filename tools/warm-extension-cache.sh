#!/usr/bin/env bash
# Builds the load_inline extensions of the given KernelBench candidates in parallel, one Python
# process per candidate, by importing each module (load_inline runs at import). Builds land in
# torch's extension cache, so the evaluation that follows loads them instead of compiling one at a
# time inside the worker. A stop-gap until kforge's own build service (issue 3).
# Usage: tools/warm-extension-cache.sh FILE...
set -uo pipefail
python="$(dirname "$0")/find-python.sh"
python="$("$python")" || { echo "warm-extension-cache: no Python with torch" >&2; exit 1; }
jobs=$(nproc)
printf '%s\n' "$@" | xargs -P "$jobs" -I{} "$python" -c '
import importlib.util, sys
path = sys.argv[1]
spec = importlib.util.spec_from_file_location("warm_" + str(abs(hash(path))), path)
try:
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    print("built", path)
except BaseException as e:  # a candidate that fails to build is judged later, by kforge
    print("failed", path, type(e).__name__)
' {}
exit 0
