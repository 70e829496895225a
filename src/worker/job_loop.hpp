#pragma once
namespace kforge::worker {
// The worker's main loop: says hello, then answers eval jobs until shutdown or EOF. Returns the
// process exit status (3 after a job that poisoned the CUDA context: kforge starts a new worker).
int serve(int in_fd, int out_fd, int zygote_fd);
}  // namespace kforge::worker
