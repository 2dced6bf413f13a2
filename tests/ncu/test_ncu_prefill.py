"""A first open of a report in a child process: the cache is filled there, the parent never
loads NVIDIA's reader (not even when the child fails), and Cancel stops the child."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from paths_support import H200_REPORT
from process_support import command_line, descendants, still_alive

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.view.prefill import fill_cache_in_child, is_cached

REPORT = H200_REPORT

PARENT = """
import sys
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import open_document
try:
    session = open_document(sys.argv[1], read_in_child=True)
    for s in session.document.summaries:
        session.kernel(s.name)
    print(len(session.document.summaries), end=" ")
except KernelscopeError as exc:
    print(exc.message.replace(" ", "_"), end=" ")
print("ncu_report" in sys.modules)  # (kernelscope's own decoding of the file may load)
"""


def _open_in_fresh_process(report: Path, cache: Path) -> list[str]:
    """What a new process (the viewer) sees opening ``report``, and whether it loaded the
    reader; this test process may have loaded it already for other tests."""
    return subprocess.run(
        [sys.executable, "-c", PARENT, str(report)],
        env={**os.environ, "KERNELSCOPE_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()


def test_parent_reads_only_the_cache_the_child_filled(tmp_path: Path) -> None:
    for _ in range(2):  # cold, then cached
        assert _open_in_fresh_process(REPORT, tmp_path) == ["4", "False"]


def test_the_child_loads_nothing_before_nvidias_reader() -> None:
    """``python -m kernelscope.core.view.prefill`` imports its package and its module before
    its ``__main__`` loads NVIDIA's reader, which must come before numpy (see
    ``ncu.load_reader_first``): neither may load numpy."""
    code = "import sys, kernelscope.core.view.prefill; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]


def test_a_failure_in_the_child_is_reported_not_retried_in_the_parent(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.ncu-rep"
    damaged.write_bytes(REPORT.read_bytes()[:5000])
    message, *loaded = _open_in_fresh_process(damaged, tmp_path / "cache")
    assert message.endswith(
        "/damaged.ncu-rep_is_not_a_readable_Nsight_Compute_report_(no_profiled_launches)"
    )
    assert loaded == ["False"]


class _WhileReading:
    """Progress and Cancel for ``fill_cache_in_child``: when the child reports that it reads
    the first kernel, record its pid and either cancel or send it a signal."""

    def __init__(self, send: signal.Signals | None = None) -> None:
        self.send = send
        self.children: list[int] = []

    def progress(self, step: str, fraction: float | None, message: str) -> None:
        if self.children:
            return
        self.children = [
            pid for pid in descendants() if "kernelscope.core.view.prefill" in command_line(pid)
        ]
        if self.send is not None:
            os.kill(self.children[0], self.send)

    def is_set(self) -> bool:
        return bool(self.children) and self.send is None


def test_cancel_kills_the_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path))
    watch = _WhileReading()
    with pytest.raises(Cancelled, match="reading small_cnn_h200.ncu-rep cancelled"):
        fill_cache_in_child(REPORT, watch, progress=watch.progress)
    assert len(watch.children) == 1
    assert not still_alive(watch.children)
    assert not is_cached(REPORT)


def test_a_crash_of_the_child_is_an_error_naming_the_signal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path))
    watch = _WhileReading(send=signal.SIGSEGV)
    with pytest.raises(KernelscopeError) as err:
        fill_cache_in_child(REPORT, watch, progress=watch.progress)
    assert err.value.message == (
        "reading small_cnn_h200.ncu-rep crashed in ncu_report: "
        "killed by SIGSEGV (Segmentation fault)"
    )
    assert "Fatal Python error: Segmentation fault" in err.value.details  # the child's stderr
    assert not is_cached(REPORT)


FIRST = """
import sys, threading
from kernelscope.core.view.prefill import is_cached
from kernelscope.core.view import open_document
shown, views = [], []

def first(session):
    shown.append(is_cached(sys.argv[1]))
    name = session.document.summaries[-1].name  # read by the child last of all
    thread = threading.Thread(target=lambda: views.append(session.kernel(name)))
    thread.start()
    shown.append(thread)

session = open_document(sys.argv[1], read_in_child=True, first=first)
shown[1].join()
print(shown[0], len(views[0].instructions) > 0, views[0].main_file != "", end=" ")
print(*(s.top_stall or "-" for s in session.document.summaries), "ncu_report" in sys.modules)
"""


def test_an_uncached_report_shows_its_kernel_list_while_the_child_reads_the_rest(
    tmp_path: Path,
) -> None:
    """``first`` gets the document before the child is done (the cache not complete yet),
    with the same kernel list and top stalls as a full read; a kernel asked for meanwhile
    waits for its part; NVIDIA's reader never loads in this process."""
    from kernelscope.core.ncu import Profile
    from kernelscope.core.view.from_profile import document_from_profile

    out = subprocess.run(
        [sys.executable, "-c", FIRST, str(REPORT)],
        env={**os.environ, "KERNELSCOPE_CACHE_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    full = document_from_profile(Profile.open(REPORT, use_cache=False)).document
    stalls = [s.top_stall or "-" for s in full.summaries]
    assert out == ["False", "True", "True", *stalls, "False"]


def test_a_report_read_over_its_workspace_is_read_again_to_be_shown_alone(
    build_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read over the workspace it was built in, a report's cache lacks the report's own SASS
    (the view takes the workspace's): opening the report alone afterwards reads it again in a
    child instead of failing for want of NVIDIA's reader, and then serves both views."""
    ws = build_once("small_cnn.onnx")
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path))
    fill_cache_in_child(REPORT, workspace=ws.path)
    assert is_cached(REPORT, over_workspace=True) and not is_cached(REPORT)
    # every kernel's view, with its SASS, and no NVIDIA reader in the parent
    assert _open_in_fresh_process(REPORT, tmp_path) == ["4", "False"]
    assert is_cached(REPORT) and is_cached(REPORT, over_workspace=True)


def test_a_report_shown_while_it_is_read_gets_nvidias_metric_descriptions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel list's tooltips: NVIDIA's text once the child has read the Details, the
    same as when the report opens from the cache."""
    from kernelscope.core.ncu import metric_description
    from kernelscope.core.view import open_document

    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path))
    shown = []
    read = open_document(REPORT, read_in_child=True, first=shown.append)
    assert shown == [read]  # shown before the child was done
    read, cached = read.document, open_document(REPORT, read_in_child=True).document
    names = read.kernel_metric_names
    assert [read.metric_description(n) for n in names] == [
        cached.metric_description(n) for n in names
    ]
    assert any(read.metric_description(n) != metric_description(n, {}) for n in names)


def test_a_report_shown_while_it_is_read_is_decoded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window's profile of a report the child reads takes the first look's launches (the
    kernel list) instead of walking every launch again: ~2 ms a launch, a second of a
    500-launch report before the kernel list shows; the child finds them in the cache."""
    from kernelscope.core.ncu import Profile
    from kernelscope.core.ncu.cache import ProfileCache, content_key

    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path))
    glance = Profile.open(REPORT, first_look=True)
    profile = Profile.open(REPORT, await_child=lambda part: None, looked=glance)
    assert profile.launches == glance.launches
    assert profile._loader._reader is None  # the file was not opened a second time
    assert ProfileCache(content_key([REPORT])).load("launches")[0] == glance.launches
