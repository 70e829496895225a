// kforge serve: warm workers that `kforge eval --server` runs its jobs on (src/serve/).
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/worker_choice.hpp"
#include "common/errors.hpp"
#include "serve/serve_messages.hpp"
#include "serve/worker_server.hpp"

namespace kforge::cli {
namespace {

struct ServeOptions {
  std::string device = "auto";
  std::string socket;
  double host_memory_gib = 0;
  double cpu_cores = 0;
  double idle_exit_s = 0;
};

int run_serve(const ServeOptions& o) {
  ExecutorConfig workers = choose_workers(o.device);
  workers.host_memory_bytes = host_memory_bound(o.host_memory_gib, workers.worker_devices.size());
  workers.cpu_cores = cpu_share(o.cpu_cores, workers.worker_devices.size());
  serve::ServerConfig config;
  config.socket = o.socket.empty() ? serve::default_socket_path() : std::filesystem::path(o.socket);
  config.idle_exit_s = o.idle_exit_s;
  for (const auto& id : workers.worker_devices) config.workers.push_back(worker_config(workers, id));
  std::cerr << fmt::format("kforge serve: starting {} worker(s) (logs in {})\n", config.workers.size(),
                           workers.log_dir.string());
  serve::run_server(config, [](const std::string& line) { std::cerr << "kforge serve: " << line << std::endl; });
  return 0;
}

}  // namespace

Runner add_serve_command(CLI::App& app, const GlobalOptions&) {
  auto o = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand(
      "serve", "Keep warm workers (Python, torch and a CUDA context already up) for `kforge eval --server`: an "
               "evaluation then skips the seconds a worker takes to start. Runs until Ctrl-C");
  cmd->add_option("--device", o->device, "auto (every GPU, else the CPU), cpu, cuda (every GPU) or cuda:N");
  cmd->add_option("--socket", o->socket,
                  "Unix socket to listen at [default: $XDG_RUNTIME_DIR/kforge/serve.sock, else "
                  "~/.cache/kforge/serve.sock]");
  cmd->add_option("--host-memory", o->host_memory_gib,
                  "GiB of resident host memory a worker may reach before it is killed, as kforge eval's "
                  "[default: 0, meaning three quarters of this machine's memory shared by the workers]")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--cpu-share", o->cpu_cores,
                  "CPU cores a job may keep busy, averaged over 3 s, as kforge eval's [default: 0, meaning this "
                  "machine's cores shared by the workers]")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--idle-exit", o->idle_exit_s, "Stop after this many seconds without a client [default: 0, never]")
      ->check(CLI::Range(0.0, 1e7));
  return [o] { return run_serve(*o); };
}

}  // namespace kforge::cli
