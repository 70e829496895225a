#!/usr/bin/env bash
# Prints the Python interpreter kforge's worker runs under, by the rule in docs/architecture.md:
#   1. $KFORGE_PYTHON, if set (it must import torch);
#   2. python3 on the PATH, if it imports torch;
#   3. the project venv that tools/setup.sh creates under the user's cache directory.
# Exit 1 (and print nothing) when none of them imports torch.
set -uo pipefail
source "$(dirname "$0")/python-pin.sh"

imports_torch() { "$1" -c 'import torch' >/dev/null 2>&1; }

if [[ -n "${KFORGE_PYTHON:-}" ]]; then
  if imports_torch "$KFORGE_PYTHON"; then echo "$KFORGE_PYTHON"; exit 0; fi
  echo "find-python: KFORGE_PYTHON=$KFORGE_PYTHON does not import torch" >&2
  exit 1
fi
if command -v python3 >/dev/null 2>&1 && imports_torch python3; then
  command -v python3
  exit 0
fi
if [[ -x "$KFORGE_VENV/bin/python" ]] && imports_torch "$KFORGE_VENV/bin/python"; then
  echo "$KFORGE_VENV/bin/python"
  exit 0
fi
exit 1
