"""One SSH login per remote run and reports that travel gzipped, against a private OpenSSH
server on 127.0.0.1 (its log counts the logins). The host's ncu is a stand-in that answers
with a report made on an H200; ssh, sshd, gzip, tar and the copies are real."""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from paths_support import H200_REPORT
from ssh_support import BASE_PYTHON, SshServer, fixture_ssh_server, stand_in  # noqa: F401

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.profiling import (
    NcuOptions,
    ProfileRequest,
    SshSession,
    SshTarget,
    Transfer,
    check_host,
    profile_workspace,
    remote,
)

# ncu on a host without a GPU: profiles nothing, answers with the H200's report.
NCU = """out=""; args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = -o ] && out="${args[i+1]}"; done
echo '==PROF== Profiling "fused_conv2d_add_relu_kernel" - 0: 0%....50%....100% - 9 passes'
cp REPORT "$out.ncu-rep"
"""


@pytest.fixture()
def ws(build_once, tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, path)
    return path


def _profile(
    server: SshServer, ws: Path, tmp_path: Path, options: list[str] | None = None
) -> list[tuple[str, float | None, str]]:
    ncu = stand_in(tmp_path, "ncu", NCU.replace("REPORT", str(H200_REPORT)))
    steps: list[tuple[str, float | None, str]] = []
    result = profile_workspace(
        ProfileRequest(
            workspace=ws,
            name="remote",
            host=SshTarget(
                server.target, list(server.options if options is None else options), ncu=str(ncu)
            ),
            ncu=NcuOptions(launch_count=1),
        ),
        progress=lambda *step: steps.append(step),
    )
    assert result.report.read_bytes() == H200_REPORT.read_bytes()
    return steps


def test_a_remote_profile_logs_in_once_and_its_report_comes_back_gzipped(
    ssh_server: SshServer, ws: Path, tmp_path: Path
) -> None:
    """Five commands (folder, copy, ncu, fetch, clean-up) used to be five logins."""
    before = ssh_server.logins()
    steps = _profile(ssh_server, ws, tmp_path)
    assert ssh_server.logins() - before == 1
    fetched = [(f, m) for step, f, m in steps if step == "fetch"]
    size = H200_REPORT.stat().st_size
    assert fetched[-1][0] == 1.0  # the transfer's progress reaches 100 %, with its sizes
    kb = f"{size / 1e3:.1f} KB"
    assert fetched[-1][1].startswith(f"report.ncu-rep: {kb} of {kb} (100 %, ")
    assert fetched[-1][1].endswith(" KB gzipped)")
    assert ssh_server.leftovers() == []


def test_the_doctor_logs_in_once(ssh_server: SshServer, tmp_path: Path) -> None:
    ncu = stand_in(tmp_path, "ncu", "echo '==PROF== Profiling \"k\" - 0: 0%....100%'\n")
    smi = stand_in(ssh_server.bin, "nvidia-smi", 'echo "0, NVIDIA H200, 580.159.04, 1 MiB, 9.0"')
    try:
        before = ssh_server.logins()
        report = check_host(SshTarget(ssh_server.target, list(ssh_server.options), BASE_PYTHON,
                                      str(ncu)))  # fmt: skip
    finally:
        smi.unlink()
    assert report.check("counters") is not None  # the probe ran: four more commands
    assert ssh_server.logins() - before == 1
    assert ssh_server.leftovers() == []


def test_fetch_is_gzipped_byte_for_byte_with_progress_to_100_percent(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    seen: list[Transfer] = []
    local = tmp_path / "back.ncu-rep"
    with SshSession(SshTarget(ssh_server.target, list(ssh_server.options))) as session:
        done = session.fetch(str(H200_REPORT), local, lambda t: seen.append(Transfer(**vars(t))))
    size = H200_REPORT.stat().st_size
    assert local.read_bytes() == H200_REPORT.read_bytes()
    assert done.compressed and done.size == done.done == size
    assert 0 < done.sent < size / 3  # about a fifth of it crossed the connection
    assert seen[0].done == 0 and seen[-1].fraction == 1.0
    assert [t.done for t in seen] == sorted(t.done for t in seen)
    assert seen[-1].describe() == (
        f"small_cnn_h200.ncu-rep: {size / 1e3:.1f} KB of {size / 1e3:.1f} KB "
        f"(100 %, {done.sent / 1e3:.1f} KB gzipped)"
    )


def test_a_host_without_gzip_sends_the_file_as_it_is(
    ssh_server: SshServer, ws: Path, tmp_path: Path
) -> None:
    assert ssh_server.run("command -v gzip").stdout.strip()
    no_gzip = ssh_server.options_without_gzip
    plain = subprocess.run(
        ["ssh", "-oBatchMode=yes", *no_gzip, ssh_server.target, "command -v gzip || echo none"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert plain.stdout.strip() == "none"
    with SshSession(SshTarget(ssh_server.target, list(no_gzip))) as session:
        done = session.fetch(str(H200_REPORT), tmp_path / "back")
    assert not done.compressed and done.sent == done.size == H200_REPORT.stat().st_size
    assert (tmp_path / "back").read_bytes() == H200_REPORT.read_bytes()
    steps = _profile(ssh_server, ws, tmp_path, no_gzip)  # the whole run, too
    assert "not compressed" in [m for step, _, m in steps if step == "fetch"][-1]


def test_a_users_own_control_master_is_left_alone(
    ssh_server: SshServer, ws: Path, tmp_path: Path
) -> None:
    """~/.ssh/config's ControlMaster/ControlPath: kernelscope's own options win, and nothing
    of its connection appears where the user's sockets go."""
    theirs = tmp_path / "their-sockets"
    theirs.mkdir()
    config = tmp_path / "ssh_config"
    config.write_text(
        f"Host *\n  ControlMaster auto\n  ControlPath {theirs}/%C\n  ControlPersist 600\n"
    )
    before = ssh_server.logins()
    _profile(ssh_server, ws, tmp_path, ["-F", str(config), *ssh_server.options])
    assert ssh_server.logins() - before == 1
    assert list(theirs.iterdir()) == []


def test_the_session_folder_is_private_and_gone_afterwards(ssh_server: SshServer) -> None:
    target = SshTarget(ssh_server.target, list(ssh_server.options))
    with SshSession(target) as session:
        assert session.shared and session.target.control_path
        sock = Path(session.target.control_path)
        assert len(str(sock)) < 90 and stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
        with SshSession(session.target) as inner:  # a session inside reuses the connection
            assert inner.target.control_path == str(sock)
        assert sock.exists()
        before = ssh_server.logins()
        assert session.run("echo $((6 * 7))", "arithmetic").output.strip() == "42"
        assert ssh_server.logins() == before
    assert not sock.parent.exists() and session.target == target
    # the master has gone: a check through its socket finds nobody
    check = subprocess.run(
        ["ssh", f"-oControlPath={sock}", "-O", "check", ssh_server.target],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert check.returncode != 0


def test_a_port_forwarded_over_the_session(ssh_server: SshServer) -> None:
    """What a TVM RPC tracker on the host would get: here the host's own sshd answers."""
    port = int(next(o for o in ssh_server.options if o.startswith("-oPort="))[7:])
    with SshSession(SshTarget(ssh_server.target, list(ssh_server.options))) as session:
        with session.forward(port) as local, socket.create_connection(("127.0.0.1", local)) as s:
            s.settimeout(10)
            assert s.recv(64).startswith(b"SSH-2.0-")
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", local), timeout=5).close()


def test_a_missing_remote_file_is_an_error_and_leaves_nothing(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    local = tmp_path / "back"
    target = SshTarget(ssh_server.target, list(ssh_server.options))
    with (
        SshSession(target) as session,
        pytest.raises(KernelscopeError, match="no such file on the host"),
    ):
        session.fetch(str(tmp_path / "nothing-here"), local)
    assert not local.exists()


def test_a_remote_timeline_logs_in_once(ssh_server: SshServer, ws: Path, tmp_path: Path) -> None:
    """Up to the GPU this host does not have: folder, copy, runner, clean-up."""
    from kernelscope.core.timeline import TimelineRequest, measure_timeline

    before = ssh_server.logins()
    with pytest.raises(KernelscopeError, match="could not be measured on"):
        measure_timeline(
            TimelineRequest(
                workspace=ws,
                warmup=0,
                repeat=1,
                host=SshTarget(
                    ssh_server.target,
                    list(ssh_server.options),
                    python=sys.executable,
                    runtime_root=str(tmp_path / "none"),
                ),
            )
        )
    assert ssh_server.logins() - before == 1
    assert ssh_server.leftovers() == []


def test_a_failed_or_cancelled_login_leaves_no_folder(
    ssh_server: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A temporary folder of this test's own (short: the socket's path is limited), since
    # the other test worker's sessions come and go in the shared one meanwhile.
    own = Path(tempfile.mkdtemp(prefix="kst-", dir="/tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(own))
    wrong = [o for o in ssh_server.options if "IdentityFile" not in o]
    wrong.append(f"-oIdentityFile={ssh_server.wrong_key}")
    with pytest.raises(KernelscopeError, match="wrong user name or key"):
        SshSession(SshTarget(ssh_server.target, wrong)).open()
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled), SshSession(SshTarget(ssh_server.target, ssh_server.options),
                                              cancel):  # fmt: skip
        pass
    assert list(own.iterdir()) == []
    own.rmdir()


def test_the_connection_outlasts_idle_gaps_and_ends_when_kernelscope_dies(
    ssh_server: SshServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """ControlPersist ends an idle master: the session's own client keeps it (and a forwarded
    port) up however long the gap between commands; a killed kernelscope leaves a master that
    ends ControlPersist seconds later."""
    # 3 s, not less: the master backgrounds itself before the session's client connects, and
    # a loaded machine can take a second between the two (then no shared connection is made)
    monkeypatch.setattr(remote, "CONTROL_PERSIST_S", 3)
    port = int(next(o for o in ssh_server.options if o.startswith("-oPort="))[7:])
    with SshSession(SshTarget(ssh_server.target, list(ssh_server.options))) as session:
        before = ssh_server.logins()
        with session.forward(port) as local:
            time.sleep(5)  # longer than ControlPersist: only the session's client keeps it
            with socket.create_connection(("127.0.0.1", local), timeout=10) as s:
                assert s.recv(64).startswith(b"SSH-2.0-")
        assert session.run("true", "a later command").code == 0
        assert ssh_server.logins() == before
    script = (
        "import os, sys\n"
        "from kernelscope.core.profiling import SshSession, SshTarget, remote\n"
        "remote.CONTROL_PERSIST_S = 1\n"
        f"s = SshSession(SshTarget({ssh_server.target!r}, {list(ssh_server.options)!r}))\n"
        "s.open()\n"
        "print(s.target.control_path, flush=True)\n"
        "os._exit(9)\n"
    )
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=60)  # fmt: skip
    control = Path(child.stdout.strip())
    assert child.returncode == 9 and control.name == "c"
    deadline = time.monotonic() + 20
    while control.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not control.exists(), "the shared connection outlived kernelscope"
    shutil.rmtree(control.parent)


def test_a_login_script_that_prints_does_not_get_into_the_report(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    """Hosts whose login scripts greet on stdout (a ForceCommand here, ~/.bashrc there)."""
    said = subprocess.run(
        ["ssh", "-oBatchMode=yes", *ssh_server.options_noisy, ssh_server.target, "echo hi"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert said.stdout == "Welcome to the GPU cluster\nhi\n"
    with SshSession(SshTarget(ssh_server.target, ssh_server.options_noisy)) as session:
        done = session.fetch(str(H200_REPORT), tmp_path / "back")
    assert done.compressed and (tmp_path / "back").read_bytes() == H200_REPORT.read_bytes()


def test_control_folders_a_killed_kernelscope_left_are_removed(tmp_path: Path) -> None:
    """A hard kill leaves the session's private control folder (ssh removes its socket when
    the connection ends): the next session removes such folders once they are old, and
    nothing that may still be in use."""
    now = time.time()
    old = now - 3600

    def folder(name: str, mtime: float, with_socket: bool = False) -> Path:
        path = tmp_path / name
        path.mkdir()
        if with_socket:
            (path / "c").write_text("")  # stands for the socket of a live connection
        os.utime(path, (mtime, mtime))
        return path

    stale = folder("ks-ssh-stale", old)
    logging_in = folder("ks-ssh-new", now - 5)  # a session still logging in: no socket yet
    live = folder("ks-ssh-live", old, with_socket=True)
    other = folder("other-old", old)
    (tmp_path / "ks-ssh-file").write_text("")
    assert remote.prune_control_folders(tmp_path, now) == [stale]
    assert not stale.exists()
    assert logging_in.is_dir() and live.is_dir() and other.is_dir()
    assert (tmp_path / "ks-ssh-file").is_file()
