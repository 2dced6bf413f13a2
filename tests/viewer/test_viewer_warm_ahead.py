"""Kernels read ahead while the window is idle (``viewer.warm_ahead``): a first click on a
kernel then starts no job, and shows what reading it on demand shows."""

from __future__ import annotations

from details_support import REPORT, WS_MLP
from viewer_support import settle, settle_all

from kernelscope.core.view import hot_lines, read_details
from kernelscope.viewer.details import DetailsFeature


def test_a_first_click_shows_what_was_read_ahead(qtbot, make_window) -> None:
    window = make_window(REPORT)
    window.feature(DetailsFeature).show_pane("details")
    settle_all(qtbot, window)
    assert window.feature(DetailsFeature).warm_ahead.pending == []
    document = window.selection.document
    started: list[str] = []
    start = window.workers.start

    def recording(lane, fn, name="job"):
        started.append(name)
        return start(lane, fn, name)

    window.workers.start = recording
    current = window.selection.kernel.name
    session = window.selection.open_session()
    names = [s.name for s in document.summaries if document.launched(s.name) and s.name != current]
    assert names
    for name in names:
        started.clear()
        window.selection.show(name)
        settle(qtbot, window)
        assert window.selection.kernel.name == name
        assert started == [], name
        assert window.feature(DetailsFeature).details_pane.details == read_details(session, name)
        metric = window.selection.metric
        assert window.hot.model.rowCount() == len(hot_lines(session, metric, name))
        assert window.hot._ranked[(metric, name)] == hot_lines(session, metric, name)


def test_nothing_is_read_ahead_without_a_profile(qtbot, make_window) -> None:
    window = make_window(WS_MLP)
    settle_all(qtbot, window)
    assert window.selection.document is not None
    assert window.feature(DetailsFeature).warm_ahead.pending == []
    assert window.feature(DetailsFeature).details_pane._cache == {}


def test_clicks_while_kernels_are_read_ahead(qtbot, make_window) -> None:
    """A click stops the kernel read ahead at its next step; that kernel is read later."""
    window = make_window(REPORT)  # its first kernel shown; the rest may be on their way
    document = window.selection.document
    names = [s.name for s in document.summaries if document.launched(s.name)]
    for name in reversed(names):
        window.selection.show(name)
        settle(qtbot, window)
        assert window.selection.kernel.name == name
    settle_all(qtbot, window)
    assert window.feature(DetailsFeature).warm_ahead.pending == []
    assert {kernel for kernel, _ in window.feature(DetailsFeature).details_pane._cache} >= set(
        names
    )
