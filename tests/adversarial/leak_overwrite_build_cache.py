# hack: leaking state into later jobs (kforge's build cache)
# Walks kforge's build cache (the worker's environment names it) and overwrites every library and
# precompiled header it finds, so that a later candidate whose load_inline build is served from
# the cache loads a broken or planted binary; and plants a file of its own there. A candidate's
# process neither reads nor writes the cache (worker/build_broker.hpp): it finds nothing, writes
# nothing, and computes honestly. Its own result: correct; a later candidate's: unchanged
# (tests/integration/cpu_inline_build_test.cpp, ACandidateCannotBreakAnotherOnesCachedBuild).
import os

import torch
import torch.nn as nn

for cache in os.environ.get("KFORGE_WORKER_BUILD_CACHE", "").split(":"):
    if not cache:
        continue
    try:
        for root, _, files in os.walk(cache):
            for name in files:
                if name.endswith((".so", ".gch")):
                    try:
                        with open(os.path.join(root, name), "wb") as f:
                            f.write(b"not a library")
                    except OSError:
                        pass
        os.makedirs(os.path.join(cache, "objects", "planted"), exist_ok=True)
        with open(os.path.join(cache, "objects", "planted", "meta.json"), "w") as f:
            f.write('{"ok": true}')
    except OSError:
        pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
