"""Build & Profile and the Timeline pane on an SSH host, in a real window, against the private
OpenSSH server on 127.0.0.1 (its nvidia-smi and ncu are stand-ins; ssh, the copies, the
remote supervisor and Python are real): the doctor's answer with its fixes in the dialog,
per-kernel progress streamed from the remote ncu, Cancel that leaves no remote process and
no remote folder, the bad logins, and "Profile this kernel" over SSH opening its report."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from paths_support import H200_REPORT
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from ssh_support import (  # noqa: F401 - fixture_*: fixtures
    NCU_VERSION,
    NVIDIA_SMI,
    SshServer,
    fixture_host_bin,
    fixture_ssh_server,
    free_port,
    old_python,
    pids_gone,
    stand_in,
)
from test_viewer_timeline import runner_timeline

from kernelscope.core.profiling import COUNTERS_FIX
from kernelscope.core.timeline import timelines_dir
from kernelscope.viewer.build_profile.build_dialog import BuildDialog
from kernelscope.viewer.dialogs.host_choice import HostEntry, HostStore
from kernelscope.viewer.timeline import TimelineFeature

SMALL_CNN = ["fused_conv2d_add_relu_kernel", "max_pool2d_kernel", "transpose_kernel",
             "fused_matmul_add1_kernel"]  # fmt: skip
WAIT = 120_000


def _entry(server: SshServer, **kw: object) -> HostEntry:
    """The server as the dialog's fields give it: port and key in theirs, the rest as options."""
    port = next(int(o.split("=")[1]) for o in server.options if o.startswith("-oPort="))
    key = next(o.split("=", 1)[1] for o in server.options if o.startswith("-oIdentityFile="))
    extra = [o for o in server.options if not o.startswith(("-oPort=", "-oIdentityFile="))]
    fields: dict = {"python": sys.executable, "extra": extra, **kw}
    return HostEntry(server.target, port, key, **fields)


def _fill(dialog: BuildDialog, entry: HostEntry) -> None:
    host = dialog.host
    host.where.setCurrentText(entry.host)
    host.port.setValue(entry.port)
    host.identity.setText(entry.identity)
    host.python.setText(entry.python)
    host.ncu.setText(entry.ncu)
    host.extra.setText(" ".join(entry.extra))
    host.runtime_root.setText(entry.runtime_root)


def _dialog(qtbot, window, entry: HostEntry, **kw) -> BuildDialog:  # noqa: ANN001, ANN003
    dialog = BuildDialog(window.workers, window, settings=window.settings, **kw)
    dialog.show()
    _fill(dialog, entry)
    return dialog


def _finish(qtbot, dialog: BuildDialog) -> str:
    qtbot.waitUntil(lambda: dialog.job is None, timeout=WAIT)
    return dialog.log.toPlainText()


PROBE_FORBIDDEN = (
    NCU_VERSION
    + """
echo '==PROF== Connected to process 4242'
printf '%s%s\\n' '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access ' \\
  'NVIDIA GPU Performance Counters on the target device 0.'
exit 1
"""
)


def test_check_host_shows_the_doctor_and_the_exact_fixes(
    qtbot, make_window, ssh_server: SshServer, host_bin: Path, tmp_path: Path
) -> None:
    stand_in(host_bin, "nvidia-smi", NVIDIA_SMI)
    ncu = stand_in(tmp_path, "ncu", PROBE_FORBIDDEN)
    window = make_window()
    dialog = _dialog(qtbot, window, _entry(ssh_server, ncu=str(ncu)))
    dialog.tabs.setCurrentIndex(0)
    dialog.check_button.click()
    assert dialog.job is not None and not dialog.check_button.isEnabled()
    log = _finish(qtbot, dialog)
    assert "[connect]" in log and "[probe]" in log and "not ready to profile" in log
    text = dialog.report_view.toPlainText()
    assert dialog.tabs.currentIndex() == 2  # the answer is shown where it was asked
    assert "NVIDIA H200 (sm_90)" in text and "driver 580.159.04" in text
    assert "ncu 2025.3.1.0" in text and "ERR_NVGPUCTRPERM" in text
    assert f"fix: {COUNTERS_FIX}" in text and "NVreg_RestrictProfilingToAdminUsers=0" in text
    assert "FAIL" in text and f"{ssh_server.target}: not ready to profile" in text
    assert dialog.tvm.arch.currentText() == "sm_90"
    assert ssh_server.leftovers() == []
    # the host is remembered with how to reach it
    assert HostStore(QSettings()).get(ssh_server.target).ncu == str(ncu)
    dialog.close()


def test_check_host_without_gpu_or_ncu_names_both_fixes(
    qtbot, make_window, ssh_server: SshServer, host_bin: Path
) -> None:
    window = make_window()
    dialog = _dialog(qtbot, window, _entry(ssh_server))
    dialog.check_button.click()
    _finish(qtbot, dialog)
    text = dialog.report_view.toPlainText()
    assert "no NVIDIA GPU found (nvidia-smi is not installed)" in text
    assert "fix: profile on a machine with an NVIDIA GPU" in text
    assert "ncu not found" in text and "fix: install Nsight Compute on the host" in text
    assert ssh_server.leftovers() == []
    dialog.close()


@pytest.mark.parametrize("what", ["unreachable", "wrong key", "wrong user"])
def test_bad_logins_are_clear_and_leave_nothing_running(
    qtbot, make_window, ssh_server: SshServer, what: str
) -> None:
    entry = _entry(ssh_server)
    said = "wrong user name or key"
    if what == "unreachable":
        entry.port, said = free_port(), "connection refused"
    elif what == "wrong key":
        entry.identity = str(ssh_server.wrong_key)
    else:
        entry.host = "nobody-here@127.0.0.1"
    window = make_window()
    dialog = _dialog(qtbot, window, entry)
    dialog.check_button.click()
    log = _finish(qtbot, dialog)
    assert f"error: ssh {entry.host} failed" in log and said in log
    assert dialog.report_view.report is None and dialog.check_button.isEnabled()
    assert not window.workers.busy
    dialog.close()


STREAMING_NCU = """
out=""; args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = -o ] && out="${args[i+1]}"; done
i=0
for k in KERNELS; do
  echo "==PROF== Profiling \\"$k\\" - $i: 0%....50%....100% - 9 passes"; i=$((i+1)); sleep 0.2
done
cp REPORT "$out.ncu-rep"
"""


def test_profile_on_the_host_streams_each_kernel_and_opens_the_report(
    qtbot, make_window, ssh_server: SshServer, ws_with_profile: Path, tmp_path: Path
) -> None:
    body = STREAMING_NCU.replace("KERNELS", " ".join(SMALL_CNN)).replace("REPORT", str(H200_REPORT))
    ncu = stand_in(tmp_path, "ncu", body)
    window = make_window()
    dialog = _dialog(qtbot, window, _entry(ssh_server, ncu=str(ncu)), workspace=None)
    dialog.output.setText(str(ws_with_profile))
    dialog.tvm.build.setChecked(False)
    dialog.profile.setChecked(True)
    dialog.report_name.setText("on-host")
    with qtbot.waitSignal(dialog.finished_document, timeout=WAIT) as opened:
        dialog.start.click()
    log = _finish(qtbot, dialog)
    for i, kernel in enumerate(SMALL_CNN):
        assert f"[profile] profiling {kernel} (launch {i})" in log
    assert "[copy] copying the workspace to" in log and "[fetch]" in log
    assert "profiled 4 kernel launches" in log
    assert Path(opened.args[0]) == ws_with_profile
    assert sorted(p.name for p in (ws_with_profile / "profiles").iterdir()) == [
        "earlier.ncu-rep",
        "on-host.ncu-rep",
        "on-host.ncu-rep.settings.json",  # the host and options, to profile a rebuild alike
    ]
    assert ssh_server.leftovers() == []
    dialog.close()


TREE_NCU = """
echo "$(pwd)" > PIDFILE
sleep 300 & echo $! >> PIDFILE                       # the model ncu runs
echo $$ >> PIDFILE
echo '==PROF== Profiling "fused_conv2d_add_relu_kernel" - 0: 0%....50%....100% - 9 passes'
wait
"""


def test_cancel_stops_the_remote_run_and_leaves_nothing(
    qtbot, make_window, ssh_server: SshServer, ws_with_profile: Path, tmp_path: Path
) -> None:
    pidfile = tmp_path / "pids"
    ncu = stand_in(tmp_path, "ncu", TREE_NCU.replace("PIDFILE", str(pidfile)))
    window = make_window()
    dialog = _dialog(qtbot, window, _entry(ssh_server, ncu=str(ncu)))
    dialog.output.setText(str(ws_with_profile))
    dialog.tvm.build.setChecked(False)
    dialog.profile.setChecked(True)
    dialog.start.click()
    qtbot.waitUntil(lambda: "[profile]" in dialog.log.toPlainText(), timeout=WAIT)
    assert dialog.cancel.text() == "Cancel"
    dialog.cancel.click()
    log = _finish(qtbot, dialog)
    assert "cancelled; nothing was changed" in log
    folder, *pids = pidfile.read_text().split()
    assert pids_gone([int(p) for p in pids]), "a remote process outlived the Cancel"
    assert not Path(folder).exists() and ssh_server.leftovers() == []
    assert sorted(p.name for p in (ws_with_profile / "profiles").iterdir()) == ["earlier.ncu-rep"]
    assert dialog.cancel.text() == "Close"
    dialog.close()


# --- the Timeline pane on the host ---------------------------------------------------------

FILTER_NCU = """#!PYTHON
import shutil, sys
args = sys.argv[1:]
def opt(name, default=None):
    return args[args.index(name) + 1] if name in args else default
launches = "SEQUENCE".split() * (int(opt("--warmup", "0")) + int(opt("--iterations", "1")))
chosen = list(range(len(launches)))[int(opt("--launch-skip", "0")):]
chosen = chosen[: int(opt("--launch-count", len(launches)))]
for i in chosen:
    print(f'==PROF== Profiling "{launches[i]}" - {i}: 0%....50%....100% - 9 passes')
shutil.copy("REPORT", opt("-o") + ".ncu-rep")
open("ARGS", "w").write(" ".join(args))
"""


def test_profile_this_kernel_runs_on_the_timelines_host_and_opens_the_result(
    qtbot, make_window, ssh_server: SshServer, ws_with_profile: Path, tmp_path: Path
) -> None:
    from kernelscope.core.workspace import Workspace

    workspace = Workspace.open(ws_with_profile)
    timeline = runner_timeline(workspace)
    timeline.meta["host"] = ssh_server.target  # measured there
    timeline.save(timelines_dir(workspace) / "on-host.json")
    ncu = tmp_path / "filter-ncu"
    ncu.write_text(
        FILTER_NCU.replace("PYTHON", sys.executable)
        .replace("SEQUENCE", " ".join(SMALL_CNN))
        .replace("REPORT", str(H200_REPORT))
        .replace("ARGS", str(tmp_path / "ncu-args"))
    )
    ncu.chmod(0o755)
    HostStore(QSettings()).remember(_entry(ssh_server, ncu=str(ncu)))
    QSettings().setValue("build_dialog/ncu_set", "basic")  # as Build & Profile left it
    window = make_window(ws_with_profile)
    panel = window.feature(TimelineFeature).panel
    qtbot.waitUntil(lambda: panel.timeline is not None)
    panel.choose_call(2)  # transpose_kernel
    assert panel.profile_button.isEnabled()
    with qtbot.waitSignal(window.document_opened, timeout=WAIT):
        panel.profile_button.click()
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    reports = sorted(p.name for p in (ws_with_profile / "profiles").iterdir())
    assert reports == ["call2-transpose_kernel.ncu-rep", "earlier.ncu-rep"]
    assert (
        window.selection.document.path
        == ws_with_profile / "profiles" / "call2-transpose_kernel.ncu-rep"
    )
    assert window.selection.kernel.name == "transpose_kernel"
    args = (tmp_path / "ncu-args").read_text()
    assert "--set basic" in args and "--launch-skip 6 --launch-count 1" in args  # 4 + 2
    assert "--kernel-name" not in args and "--warmup 1 --iterations 1" in args
    assert ssh_server.leftovers() == []


def test_measuring_on_a_host_without_gpu_says_so_and_leaves_nothing(
    qtbot, make_window, ssh_server: SshServer, ws_with_profile: Path, tmp_path: Path
) -> None:
    HostStore(QSettings()).remember(_entry(ssh_server, runtime_root=str(tmp_path / "none")))
    window = make_window(ws_with_profile)
    panel = window.feature(TimelineFeature).panel
    panel.where.setCurrentText(ssh_server.target)
    panel.measure_button.click()
    assert panel.job is not None
    qtbot.waitUntil(
        lambda: any(w.isVisible() for w in window.findChildren(QMessageBox)), timeout=WAIT
    )
    box = next(w for w in window.findChildren(QMessageBox) if w.isVisible())
    assert "could not be measured on" in box.text() + box.informativeText()
    qtbot.waitUntil(lambda: panel.job is None, timeout=WAIT)
    assert not (ws_with_profile / "timelines").exists() and ssh_server.leftovers() == []
    box.close()


def test_check_host_names_a_python_too_old_for_tvm(
    qtbot, make_window, ssh_server: SshServer
) -> None:
    old = old_python()
    if old is None:
        pytest.skip("no Python older than 3.10 here")
    window = make_window()
    dialog = _dialog(qtbot, window, _entry(ssh_server, python=old))
    dialog.check_button.click()
    _finish(qtbot, dialog)
    text = dialog.report_view.toPlainText()
    assert "is too old" in text and "needs 3.10+" in text
    assert "fix: give a newer interpreter" in text
    assert ssh_server.leftovers() == []
    dialog.close()


def test_install_runtime_on_host_then_the_check_finds_it(
    qtbot, make_window, ssh_server: SshServer, tmp_path: Path
) -> None:
    from kernelscope.core.profiling import local_tvm_version

    base = getattr(sys, "_base_executable", sys.executable)  # no TVM of its own
    root = tmp_path / "runtimes"
    window = make_window()
    dialog = _dialog(qtbot, window, _entry(ssh_server, python=base, runtime_root=str(root)))
    dialog.install_button.click()
    log = _finish(qtbot, dialog)
    assert f"installed a runtime-only TVM {local_tvm_version()} in {ssh_server.target}:" in log
    assert str(root) in log
    text = dialog.report_view.toPlainText()
    assert f"TVM {local_tvm_version()} (kernelscope's runtime-only install" in text
    assert [p.name for p in root.iterdir()] == [
        f"tvm-{local_tvm_version()}-cp{sys.version_info[0]}{sys.version_info[1]}"
    ]
    assert ssh_server.leftovers() == []
    dialog.close()
