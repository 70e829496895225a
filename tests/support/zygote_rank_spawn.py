"""A rank of a multi-rank job started the way kforge's worker starts candidate processes (issue 24;
docs/notes/multi-rank-judge.md): the real zygote (python/kforge_zygote.py) asked through the
worker's own client (src/worker/zygote_client.cpp) for a candidate, then for a rank in a held
private network. The rank's process must come up in that network (its "ready" frame names the
namespace, written before any candidate code could run; /proc agrees), the candidate's in the
zygote's own; a request whose descriptors do not match its kind is refused. Prints one line per
check; exit 0 when all hold.

    python zygote_rank_spawn.py
(run with PYTHONPATH holding kforge's worker module, the build's python/ folder)
"""
import json
import os
import socket
import struct
import subprocess
import sys

import _kforge_worker as worker


def read_frame(fd, timeout=60):
    """One frame of src/protocol/frame.hpp: a 4-byte little-endian length, then that much JSON."""
    sock = socket.socket(fileno=os.dup(fd))
    sock.settimeout(timeout)
    try:
        def exact(n):
            data = b""
            while len(data) < n:
                chunk = sock.recv(n - len(data))
                if not chunk:
                    raise EOFError("the candidate process closed its socket")
                data += chunk
            return data
        (length,) = struct.unpack("<I", exact(4))
        return json.loads(exact(length))
    finally:
        sock.close()


def write_frame(fd, message):
    payload = json.dumps(message).encode()
    os.write(fd, struct.pack("<I", len(payload)) + payload)


def network_of(pid):
    return os.stat(f"/proc/{pid}/ns/net").st_ino


def main():
    ours, theirs = socket.socketpair()
    script = os.path.join(os.path.dirname(os.path.abspath(worker.__file__)), "kforge_zygote.py")
    zygote = subprocess.Popen([sys.executable, script, str(theirs.fileno()), str(os.getpid()), str(os.getpid())],
                              pass_fds=[theirs.fileno()])
    theirs.close()
    ok = True

    def check(condition, line):
        nonlocal ok
        ok = ok and condition
        print(("ok: " if condition else "FAILED: ") + line, flush=True)

    # A rank's request with one descriptor where it needs two: refused, and the zygote goes on.
    spare_a, spare_b = socket.socketpair()
    socket.send_fds(ours, [b"r"], [spare_a.fileno()])
    answer = b""
    while not answer.endswith(b"\n"):
        answer += ours.recv(256)
    check(answer.startswith(b"refused"), f"a rank's request without its namespace: {answer.decode().strip()}")
    spare_a.close()
    spare_b.close()

    client = worker.Zygote(ours.fileno())
    sock, pid = client.spawn()
    ready = read_frame(sock)
    check(ready.get("type") == "ready" and "network_namespace" not in ready,
          f"candidate {pid} ready without a network of its own: {ready}")
    check(network_of(pid) == network_of(zygote.pid), "the candidate lives in the zygote's network namespace")

    holder = worker.PrivateNetworkHolder()
    held = os.fstat(holder.network_namespace_fd).st_ino
    rank_sock, rank_pid = client.spawn(holder.user_namespace_fd, holder.network_namespace_fd)
    rank_ready = read_frame(rank_sock)
    check(rank_ready.get("network_namespace") == held and held != network_of(zygote.pid),
          f"rank {rank_pid} ready in the held network {held}: {rank_ready}")
    check(network_of(rank_pid) == held, "/proc agrees: the rank lives in the held network namespace")

    # As the reference process starts a rank: its ready frame must name the job's network.
    started = client.start_rank(holder.user_namespace_fd, holder.network_namespace_fd, held)
    check(started > 0, f"rank {started} started and checked in the held network")
    other = worker.PrivateNetworkHolder()
    elsewhere = os.fstat(other.network_namespace_fd).st_ino
    try:
        client.start_rank(holder.user_namespace_fd, holder.network_namespace_fd, elsewhere)
        check(False, "a rank in another job's network was accepted")
    except RuntimeError as e:
        check("not in its job's private network" in str(e), f"a rank in another job's network is refused: {e}")
    del other

    for fd, child in ((sock, pid), (rank_sock, rank_pid)):
        write_frame(fd, {"type": "shutdown"})
        ended = client.exit_of(child, 20.0)
        check(ended == "exited with status 0", f"process {child} after shutdown: {ended!r}")
        os.close(fd)
    # The zygote leaves when its reference process's socket closes: no other process (the network
    # holder, forked while this socket was open) may keep it open.
    ours.close()
    try:
        code = zygote.wait(timeout=30)
    except subprocess.TimeoutExpired:
        zygote.kill()
        code = "still running after 30 s"
    check(code == 0, f"the zygote left when its control socket closed: {code}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
