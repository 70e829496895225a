"""Two sandboxed ranks of a multi-rank candidate, as kforge's judge will make them (issue 24;
docs/notes/multi-rank-judge.md): a held private network, each rank forked by its own process (as
each rank's zygote forks its candidate), joining it right after the fork, entering the rank
sandbox, then an all_reduce over gloo through a FileStore; and neither rank reaches a listener on
the machine's own loopback. Prints one line per rank; exit 0 when both ranks did all of it.

    python gloo_in_private_network.py SCRATCH_FOLDER
(run with PYTHONPATH holding kforge's worker module, the build's python/ folder)
"""
import datetime
import os
import socket
import sys

import torch
import torch.distributed as dist

import _kforge_worker as worker


def rank_main(rank, holder, apart_from, scratch, machine_port):
    worker.join_private_network(holder.user_namespace_fd, holder.network_namespace_fd)
    describe = worker.enter_rank_sandbox([scratch], apart_from)
    # gloo picks its address from the host name by default, which names no interface here.
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"
    store = dist.FileStore(os.path.join(scratch, "store"), 2)
    dist.init_process_group("gloo", store=store, rank=rank, world_size=2, timeout=datetime.timedelta(seconds=30))
    value = torch.tensor([float(rank + 1)])
    dist.all_reduce(value)
    dist.destroy_process_group()
    try:
        socket.create_connection(("127.0.0.1", machine_port), timeout=2).close()
        reached = True
    except OSError:
        reached = False
    print(f"rank {rank}: all_reduce {value.item():g}; machine loopback reached: {reached}; sandbox: {describe}", flush=True)
    return 0 if value.item() == 3.0 and not reached else 1


def main():
    scratch = sys.argv[1]
    machine = socket.socket()
    machine.bind(("127.0.0.1", 0))
    machine.listen(4)
    machine_port = machine.getsockname()[1]
    holder = worker.PrivateNetworkHolder()
    apart_from = worker.network_namespace_id()
    pids = []
    for rank in range(2):
        # Each rank from a process of its own, as two workers' zygotes would fork them.
        spawner = os.fork()
        if spawner == 0:
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    code = rank_main(rank, holder, apart_from, scratch, machine_port)
                except BaseException as e:  # noqa: BLE001 (reported as this rank's failure)
                    print(f"rank {rank}: {type(e).__name__}: {e}", flush=True)
                os._exit(code)
            _, status = os.waitpid(pid, 0)
            os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 2)
        pids.append(spawner)
    codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
    del holder
    return 0 if codes == [0, 0] else 1


if __name__ == "__main__":
    sys.exit(main())
