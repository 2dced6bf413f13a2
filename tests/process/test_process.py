"""The one process runner: output streamed line by line, failures and signals named, Cancel
and timeouts stopping the whole process group (SIGINT first, SIGKILL when that is ignored),
and Python children whose errors, crashes and progress reach the parent."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest
from paths_support import TESTS
from process_support import descendants, still_alive

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.process import (
    ChildCrashed,
    ChildFailed,
    ProcessError,
    StartedChild,
    run_child,
    run_process,
)


def test_lines_reach_the_callback_while_the_command_runs(tmp_path: Path) -> None:
    """The command goes on only once the callback has seen its first line."""
    seen = tmp_path / "seen"
    lines: list[str] = []

    def on_line(line: str) -> None:
        lines.append(line)
        if line == "one":
            seen.touch()

    script = f"echo one; while [ ! -e {seen} ]; do sleep 0.01; done; printf two"
    result = run_process(["sh", "-c", script], "probe", on_line=on_line, timeout=60)
    assert lines == ["one", "two"]
    assert result.output == "one\ntwo" and result.returncode == 0


def test_failure_names_the_command_and_keeps_its_output() -> None:
    with pytest.raises(ProcessError, match=r"^probe failed \(exit code 3\)$") as err:
        run_process(["sh", "-c", "echo oops >&2; exit 3"], "probe")
    assert err.value.details == "$ sh -c 'echo oops >&2; exit 3'\noops\n"
    assert err.value.result.returncode == 3
    result = run_process(["sh", "-c", "exit 3"], "probe", check=False)
    assert result.returncode == 3 and result.signal is None


def test_a_signal_is_named() -> None:
    with pytest.raises(ProcessError, match=r"killed by SIGSEGV \(Segmentation fault\)") as err:
        run_process(["sh", "-c", "kill -SEGV $$"], "probe")
    assert err.value.result.signal == "SIGSEGV"


def test_a_missing_program_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError, match="cannot run .*no-such-tool"):
        run_process([str(tmp_path / "no-such-tool")], "probe")


def test_stderr_can_go_to_a_file(tmp_path: Path) -> None:
    with (tmp_path / "err").open("w+b") as err:
        result = run_process(["sh", "-c", "echo out; echo err >&2"], "probe", stderr=err)
    assert result.output == "out\n"
    assert (tmp_path / "err").read_text() == "err\n"


def test_cancel_stops_the_whole_process_group() -> None:
    cancel = threading.Event()
    started: list[int] = []

    def on_line(line: str) -> None:
        started.extend(descendants())
        cancel.set()

    with pytest.raises(Cancelled, match="probe cancelled"):
        run_process(
            ["sh", "-c", "sleep 300 & sleep 300 & echo started; wait"],
            "probe",
            on_line=on_line,
            cancel=cancel,
        )
    assert len(started) == 3  # sh and its two sleeps
    assert not still_alive(started)


def test_cancel_sends_sigint_first(tmp_path: Path) -> None:
    """ncu ends its target cleanly on SIGINT, so that comes before SIGKILL."""
    marker = tmp_path / "interrupted"
    cancel = threading.Event()
    script = f"trap 'touch {marker}; exit 0' INT; echo ready; while :; do sleep 0.05; done"
    with pytest.raises(Cancelled):
        run_process(["sh", "-c", script], "probe", on_line=lambda _: cancel.set(), cancel=cancel)
    assert marker.exists()


def test_a_command_that_ignores_sigint_is_killed() -> None:
    cancel = threading.Event()
    started: list[int] = []

    def on_line(line: str) -> None:
        started.extend(descendants())
        cancel.set()

    with pytest.raises(Cancelled):
        run_process(
            ["sh", "-c", "trap '' INT; sleep 300 & echo ready; wait"],
            "probe",
            on_line=on_line,
            cancel=cancel,
            interrupt_grace=0.2,
        )
    assert len(started) == 2 and not still_alive(started)


def test_timeout_stops_the_command() -> None:
    started: list[int] = []
    with pytest.raises(KernelscopeError, match="probe did not finish within 0.5 s"):
        run_process(
            ["sh", "-c", "sleep 300 & echo started; wait"],
            "probe",
            on_line=lambda _: started.extend(descendants()),
            timeout=0.5,
            interrupt_grace=0.2,
        )
    assert len(started) == 2 and not still_alive(started)


def test_an_error_in_the_callback_stops_the_command() -> None:
    started: list[int] = []

    def on_line(line: str) -> None:
        started.extend(descendants())
        raise RuntimeError("callback broke")

    with pytest.raises(RuntimeError, match="callback broke"):
        run_process(["sh", "-c", "sleep 300 & echo go; wait"], "probe", on_line=on_line)
    assert len(started) == 2 and not still_alive(started)


def test_what_a_command_leaves_running_does_not_outlive_it() -> None:
    """A background grandchild keeps the output pipe open; the runner does not wait for it."""
    started: list[int] = []
    result = run_process(
        ["sh", "-c", "sleep 300 & echo done"],
        "probe",
        on_line=lambda _: started.extend(descendants()),
        timeout=60,
    )
    assert result.output == "done\n"
    assert started and not still_alive(started)


def test_commands_started_inside_a_child_stay_in_its_group() -> None:
    """So that stopping a build child's group stops the nvcc it runs."""
    script = (
        "import os, sys\n"
        "from kernelscope.core.process import run_process\n"
        "inner = run_process([sys.executable, '-c', 'import os; print(os.getpgrp())'], 'x')\n"
        "print(os.getpid(), os.getpgrp(), inner.output.strip())\n"
    )
    pid, group, inner = run_process([sys.executable, "-c", script], "probe").output.split()
    assert pid == group == inner


# --- Python children ------------------------------------------------------------------


@pytest.fixture()
def probe_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), *sys.path]))


def test_a_child_returns_its_result_and_reports_progress(probe_path: None) -> None:
    calls: list[tuple] = []
    result = run_child("child_probe", ["ok"], "probing", progress=lambda *call: calls.append(call))
    assert result == {"answer": 42}
    assert calls == [("first", 0.5, "halfway there")]


def test_a_childs_error_is_raised_again_in_the_parent(probe_path: None) -> None:
    with pytest.raises(KernelscopeError) as err:
        run_child("child_probe", ["error"], "probing")
    assert (err.value.message, err.value.hint, err.value.details) == (
        "it went wrong",
        "do this",
        "the long story",
    )
    assert err.value.window_hint == "click that"  # what the window says to do, as the child said
    assert not isinstance(err.value, ChildCrashed)


def test_a_bug_in_a_child_names_the_step_and_keeps_the_traceback(
    probe_path: None, tmp_path: Path
) -> None:
    log = tmp_path / "child.log"
    with pytest.raises(ChildFailed, match=r"probing failed in probing: ValueError: a bug") as err:
        run_child("child_probe", ["bug"], "probing", log_file=log)
    assert "Traceback" in err.value.details and "child_probe.py" in err.value.details
    assert str(log) in err.value.hint
    # said of what a child started ahead of its work turned out to do (the build child)
    named = err.value.renamed("probing model.onnx")
    assert named.message == "probing model.onnx failed in probing: ValueError: a bug"
    assert (named.hint, named.details) == (err.value.hint, err.value.details)


def test_a_crashed_child_names_step_signal_and_log(probe_path: None, tmp_path: Path) -> None:
    log = tmp_path / "child.log"
    with pytest.raises(ChildCrashed) as err:
        run_child("child_probe", ["crash"], "probing", log_file=log)
    assert err.value.message == "probing crashed in probing: killed by SIGSEGV (Segmentation fault)"
    assert str(log) in err.value.hint
    text = log.read_text()
    assert "a print goes to the log" in text
    assert "Fatal Python error: Segmentation fault" in text and "child_probe.py" in text
    assert err.value.details == ""  # the stack dump stays in the log, not below the message
    named = err.value.renamed("probing model.onnx")
    assert named.message == (
        "probing model.onnx crashed in probing: killed by SIGSEGV (Segmentation fault)"
    )
    assert (named.hint, named.details) == (err.value.hint, err.value.details)


def test_a_child_that_exits_without_a_result_is_reported(probe_path: None) -> None:
    with pytest.raises(ChildCrashed, match=r"probing crashed in probing: exit code 3"):
        run_child("child_probe", ["exit"], "probing")


def test_a_started_child_takes_one_request_or_is_stopped_unused(probe_path: None) -> None:
    """The pre-started child (builds, the line table): its result and its progress once the
    work is handed over; one that gets no work is stopped, not waited for."""
    child = StartedChild("child_probe", ["stdin"], "probing")
    calls: list[tuple] = []
    assert child.request({"pcs": [1, 2]}, lambda *call: calls.append(call)) == {
        "answer": {"pcs": [1, 2]}
    }
    assert ("second", 1.0, "request read") in calls
    assert not child.close()
    unused = StartedChild("child_probe", ["stdin"], "probing")
    started = time.monotonic()
    assert unused.close()
    assert time.monotonic() - started < 20  # it would sleep a minute for its request
    failing = StartedChild("child_probe", ["error"], "probing")
    with pytest.raises(KernelscopeError, match="it went wrong"):
        failing.request({})
