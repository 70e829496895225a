# hack: running while kforge has the process stopped
# kforge stops a candidate's process (SIGSTOP) whenever it is not answering, so nothing of it runs
# beside the reference's timed calls. A signal the kernel sends for the process itself resumes it:
# fcntl(F_SETSIG, SIGCONT) on a descriptor set for O_ASYNC has the kernel send SIGCONT when the
# descriptor is ready (a timerfd's tick, a pipe another process writes). The candidate asks for it
# on a pipe; kforge's filter refuses F_SETSIG (and mq_notify, whose notice can be a signal too), so
# it computes the honest answer: correct. (timer_create, whose signal can be SIGCONT as well, is
# refused too: escape_resume_with_a_timer.py.)
import fcntl
import os
import signal

import torch
import torch.nn as nn


def _ask_for_sigcont():
    read_end, write_end = os.pipe()
    try:
        fcntl.fcntl(read_end, fcntl.F_SETOWN, os.getpid())
        fcntl.fcntl(read_end, fcntl.F_SETSIG, int(signal.SIGCONT))
        fcntl.fcntl(read_end, fcntl.F_SETFL, fcntl.fcntl(read_end, fcntl.F_GETFL) | os.O_ASYNC)
        return True
    except OSError:
        return False
    finally:
        os.close(read_end)
        os.close(write_end)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.granted = _ask_for_sigcont()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if self.granted:
            raise RuntimeError("REACHED: F_SETSIG with SIGCONT granted")
        return torch.relu(a + b)
