# hack: leak / disk left behind
# __init__ nests 3,000 folders in its scratch folder, a path of 6,000 characters, with a file at the
# bottom. The reference process removed a candidate's scratch folder with nftw, which works on
# whole paths, gave up past PATH_MAX without a word, and left the tree in the worker's scratch for
# as long as the worker lived (a `kforge serve` worker: every such candidate's). The watch of the
# scratch folder counts no deeper than 128 folders and ends the candidate whose folder nests
# deeper (at its walks, and at the job's end); the folder is then removed by file descriptor,
# however deep (common/remove_tree.hpp). runtime_error, "more than 128 deep".
import os

import torch
import torch.nn as nn

DEPTH = 3000


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        fd = os.open(".", os.O_RDONLY)
        for _ in range(DEPTH):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
        bottom = os.open("bottom.bin", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd)
        os.write(bottom, b"z" * (1 << 20))
        os.close(bottom)
        os.close(fd)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
