"""kforge worker entry point: import torch, then hand control to the C++ job loop (src/worker/)."""
import sys

import torch  # noqa: F401  (loads libtorch before the extension that links it)

import _kforge_worker

sys.exit(_kforge_worker.serve(3, 4))
