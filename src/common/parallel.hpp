#pragma once
// Runs fn(0) .. fn(n-1) on up to `jobs` threads (0: one per core), each thread taking the next
// index as it finishes the last; returns when all are done. For independent work items whose
// results go to distinct slots (compiles, imports).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace kforge {

template <class Fn>
void parallel_for(size_t n, int jobs, Fn&& fn) {
  if (jobs <= 0) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min<int>(jobs, static_cast<int>(n)); ++t)
    threads.emplace_back([&] {
      for (size_t i = next++; i < n; i = next++) fn(i);
    });
  for (auto& t : threads) t.join();
}

}  // namespace kforge
