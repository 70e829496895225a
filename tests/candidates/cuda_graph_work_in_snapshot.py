# expect: correct; with --cuda-graph on a GPU: correct, timed by kforge's clock (no inflated speedup)
# A hack on graph timing: kforge_graphs runs in the candidate's process, so the candidate patches
# it at import. The timed replay does nothing; the real replay is queued in the snapshot, which
# comes after the timed window. Without a synchronisation before the timed frame, that work
# would finish after kforge's clock stopped, and the reported time would be the empty replay's.
import torch
import torch.nn as nn

try:
    import kforge_graphs

    def _idle_replay(self):
        return self._out

    def _replay_then_copy(self, _replay=kforge_graphs.GraphedForward.replay):
        _replay(self)
        return self._out.clone()

    kforge_graphs.GraphedForward.replay = _idle_replay
    kforge_graphs.GraphedForward.snapshot = _replay_then_copy
except ImportError:  # outside kforge's candidate process
    pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        # Eight times the work, so a timing that missed it would show a speedup far above 1.
        out = torch.relu(a + b)
        for _ in range(7):
            out = torch.relu(a + b) + 0 * out
        return out
