"""Benchmark a remote profile's and timeline's round trip over SSH (issue 23, item 6): logins,
TCP connections and bytes each way, against a private OpenSSH server on 127.0.0.1.

    python benchmarks/bench_remote.py [--workspace WS] [--launches N] [--mbit MBIT] [--rtt-ms MS]

What runs is kernelscope's own remote path, end to end, as ``kernelscope profile --host`` and
``kernelscope timeline --host`` run it: a temporary folder on the host, the workspace copied
there, ncu (or the runner) under the remote supervisor, the result fetched, the folder
removed. The host has no GPU, so its ``ncu`` is a stand-in that answers with the mlp report's
results repeated to N launches (60 by default: a ``--set full`` report of about 70 MB, as big
as the 63 MB one of a 55-launch model in the issue), and its runner answers with a timeline
of the workspace's calls (the H200 runner's layout). The sshd comes from tests/ssh_support.py
(``scripts/bootstrap.sh``'s ``ks_test_sshd`` unpacks one); ssh reaches it through a relay here
that counts connections and bytes (and with ``--mbit`` and ``--rtt-ms`` paces each direction
to that rate and delays it by half that round trip: a network link rather than loopback);
logins are counted in sshd's log.

The workspace: WS, else tests/data/models/small_cnn.onnx built into benchmarks/out/ (a real
TVM build, once). To measure another version of kernelscope (before a change), put its
package first on PYTHONPATH: the script uses only ``profile_workspace`` and
``measure_timeline``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import queue
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "out"
sys.path.insert(0, str(ROOT / "tests"))

from bench_import import repeat_report  # noqa: E402
from paths_support import data_path  # noqa: E402
from ssh_support import SshServer, stand_in, start_sshd, stop_sshd  # noqa: E402

MLP_REPORT = data_path("ncu/mlp/mlp.ncu-rep")  # 5 launches, --set full

RESULT_TAG = "KERNELSCOPE_RESULT "
# The host's ncu: profiles nothing, leaves the big report where it was asked to write one.
STAND_IN_NCU = """out=""; args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = -o ] && out="${args[i+1]}"; done
echo '==PROF== Profiling "kernel" - 0: 0%....50%....100% - 40 passes'
cp REPORT "$out.ncu-rep"
"""
# The host's python: the real one for the supervisor, a recorded answer for the runner.
STAND_IN_PYTHON = """case "$1" in
  */runner.py) cat {answer};;
  *) exec {python} "$@";;
esac
"""


class Relay:
    """A TCP relay 127.0.0.1:port -> 127.0.0.1:to that counts connections and bytes; with
    ``mbit`` each direction is paced to that rate, with ``rtt_ms`` each chunk arrives half
    that late (a network link rather than loopback)."""

    def __init__(self, to: int, mbit: float | None = None, rtt_ms: float = 0.0) -> None:
        self.to = to
        self.seconds_per_byte = 8 / (mbit * 1e6) if mbit else 0.0
        self.delay = rtt_ms / 2e3
        self.connections = 0
        self.up = 0  # bytes to the host
        self.down = 0  # bytes from the host
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def counts(self) -> tuple[int, int, int]:
        with self.lock:
            return self.connections, self.up, self.down

    def _accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            server = socket.create_connection(("127.0.0.1", self.to))
            with self.lock:
                self.connections += 1
            for src, dst, way in ((client, server, "up"), (server, client, "down")):
                chunks: queue.Queue[tuple[float, bytes]] = queue.Queue()
                threading.Thread(target=self._read, args=(src, chunks, way), daemon=True).start()
                threading.Thread(target=self._send, args=(dst, chunks), daemon=True).start()

    def _read(self, src: socket.socket, chunks: queue.Queue, way: str) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(1 << 16):
                chunks.put((time.monotonic() + self.delay, data))
                with self.lock:
                    setattr(self, way, getattr(self, way) + len(data))
        chunks.put((0.0, b""))

    def _send(self, dst: socket.socket, chunks: queue.Queue) -> None:
        with contextlib.suppress(OSError):
            while True:
                due, data = chunks.get()
                if not data:
                    break
                time.sleep(max(due - time.monotonic(), 0.0))
                dst.sendall(data)
                time.sleep(len(data) * self.seconds_per_byte)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)


def _workspace(given: str | None) -> Path:
    if given:
        return Path(given)
    out = OUT / "remote_small_cnn.kscope"
    if not (out / "manifest.json").is_file():
        from kernelscope.core.build import BuildRequest, build_model

        print("building small_cnn.onnx (once) ...", flush=True)
        build_model(
            BuildRequest(model=ROOT / "tests" / "data" / "models" / "small_cnn.onnx", output=out)
        )
    return out


def _canned_timeline(ws: Path) -> dict:
    """A runner's ``--timeline`` answer for the workspace's calls, laid out as on the H200."""
    manifest = json.loads((ws / "manifest.json").read_text())
    launched = [k["name"] for k in manifest["kernels"] if k.get("launched")]
    calls, start = [], 0.0
    for i, name in enumerate(launched):
        duration = 5.0 + i % 7
        calls.append({
            "kernels": [name], "primfunc": name.removesuffix("_kernel"), "start_us": start,
            "duration_us": duration, "min_us": duration - 0.2, "max_us": duration + 0.4,
            "raw_us": duration + 1.3,
        })  # fmt: skip
        start += duration + 1.0
    return {"device": "NVIDIA H200", "calls": calls, "passes": 10, "overhead_us": 1.3}


def _measure(name: str, server: SshServer, relay: Relay, run: object) -> dict:
    logins, (connections, up, down) = server.logins(), relay.counts()
    start = time.perf_counter()
    run()  # type: ignore[operator]
    seconds = time.perf_counter() - start
    c, u, d = relay.counts()
    return {
        "what": name,
        "logins": server.logins() - logins,
        "connections": c - connections,
        "sent MB": round((u - up) / 1e6, 2),
        "received MB": round((d - down) / 1e6, 2),
        "seconds": round(seconds, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workspace", help="a built workspace (default: small_cnn, built once)")
    parser.add_argument("--launches", type=int, default=60, help="launches in the report")
    parser.add_argument("--mbit", type=float, help="pace the connection to this many Mbit/s")
    parser.add_argument("--rtt-ms", type=float, default=0.0, help="round-trip time to add")
    args = parser.parse_args()

    import kernelscope
    from kernelscope.core.profiling import ProfileRequest, profile_workspace
    from kernelscope.core.timeline import TimelineRequest, measure_timeline

    print(f"kernelscope from {Path(kernelscope.__file__).resolve().parent}")
    ws = _workspace(args.workspace)
    OUT.mkdir(exist_ok=True)
    report = OUT / f"mlp_x{args.launches // 5}.ncu-rep"
    if not report.is_file():
        repeat_report(MLP_REPORT, report, args.launches // 5)
    with tempfile.TemporaryDirectory(prefix="ks-bench-") as tmp:
        folder = Path(tmp)
        (folder / "sshd").mkdir()
        server, sshd = start_sshd(folder / "sshd")
        try:
            port = int(next(o for o in server.options if o.startswith("-oPort="))[7:])
            relay = Relay(port, args.mbit, args.rtt_ms)
            options = [f"-oPort={relay.port}", *server.options[1:]]
            ncu = stand_in(folder, "ncu", STAND_IN_NCU.replace("REPORT", str(report)))
            answer = folder / "timeline.json"
            timeline = _canned_timeline(ws)
            answer.write_text(RESULT_TAG + json.dumps(timeline) + "\n")
            python = stand_in(
                folder, "python3", STAND_IN_PYTHON.format(answer=answer, python=sys.executable)
            )
            request = {
                "workspace": ws,
                "name": "bench-remote",
                "host": server.target,
                "ssh_options": options,
                "remote_python": str(python),
            }
            size = report.stat().st_size / 1e6
            rows = [
                _measure(
                    f"profile --host (report of {size:.1f} MB, {args.launches} launches)",
                    server,
                    relay,
                    lambda: profile_workspace(
                        ProfileRequest(**request, remote_ncu=str(ncu), launch_count=1)
                    ),
                ),
                _measure(
                    f"timeline --host ({len(timeline['calls'])} calls, "
                    f"{answer.stat().st_size} bytes of JSON)",
                    server,
                    relay,
                    lambda: measure_timeline(TimelineRequest(**request)),
                ),
            ]
            fetched = ws / "profiles" / "bench-remote.ncu-rep"
            assert fetched.read_bytes() == report.read_bytes(), "the report came back different"
            fetched.unlink()
            (ws / "timelines" / "bench-remote.json").unlink()
        finally:
            stop_sshd(sshd)
    for row in rows:
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
