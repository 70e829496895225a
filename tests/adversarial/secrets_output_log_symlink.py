# hack: smuggling a file out through the candidate's output
# The candidate's output goes to output.log in its scratch folder, which the reference process
# reads back for a crash's message and the worker's log. This candidate puts a link there in its
# place, to a file of the user's it may not read itself ($HOME/secret.txt in the isolation test;
# ~/.netrc or an SSH key on a real machine), and crashes: a reader that follows links would read
# the file as the judge, which reads what the user can, and quote it in the stored verdict.
# The reference process opens the log without following links: crashed, and no secret quoted
# (tests/integration/cpu_isolation_test.cpp checks the message and kforge's output).
import os

import torch
import torch.nn as nn

TARGET = os.path.join(os.environ.get("HOME", "/root"), "secret.txt")


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        print("before the link", flush=True)
        os.remove("output.log")
        os.symlink(TARGET, "output.log")
        os.abort()
