# expect: crashed
# CPU and GPU: a C++ extension whose 16 threads all write through a bad pointer at once (as an
# OpenMP loop over a CUDA tensor's data does on a GPU): SIGSEGV in every thread together. The
# process's crash report is written once, and the verdict comes at once (src/worker/crash_report.cpp).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
#include <atomic>
#include <thread>
#include <vector>
torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
    std::vector<std::thread> threads;
    std::atomic<int> arrived{0};
    volatile float* bad = reinterpret_cast<float*>(0x10);
    for (int t = 0; t < 16; ++t)
        threads.emplace_back([&arrived, bad, t] {
            arrived.fetch_add(1);
            while (arrived.load() < 16) {
            }  // every thread started: they fault together
            for (;;) bad[t] = 1.0f;
        });
    for (auto& th : threads) th.join();
    return a + b;
}
"""

_ext = load_inline(name="kforge_test_inline_threads_segfault", cpp_sources=_CPP_SRC, functions=["add_relu"],
                   extra_cflags=["-O2"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.add_relu(a, b)
