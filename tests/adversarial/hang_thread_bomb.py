# hack: hang / task bomb
# __init__ starts sleeping threads in a loop (4,000 here, so a machine without the bound is not put
# at risk): the machine's task table is shared (kernel.pid_max is 32,768 on the development
# machine) and a bomb that filled it left kforge, its compilers and every other worker unable to
# start a thread or a process, their candidates judged by the bomb. The thread check saw them only
# once __init__ returned. The reference process's watch counts the tasks of the candidate's process
# tree (pool/task_count.hpp) and ends it past 512 + 4 a core: runtime_error, "threads or more".
import threading
import time

import torch
import torch.nn as nn

THREADS = 4000


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        for _ in range(THREADS):
            threading.Thread(target=time.sleep, args=(600,), daemon=True).start()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
