"""The kernel list of a report of an LLM's steps: all the profiled steps, or one step's
kernels with their times in it (a choice shown only for such a report)."""

from __future__ import annotations

from pathlib import Path

from paths_support import H200_REPORT
from steps_support import stepped_report, write_step_list
from viewer_support import settle

from kernelscope.core.view.from_profile import document_from_profile


def _names(window) -> list[str]:  # noqa: ANN001
    model = window.kernels.model
    return sorted(model.rows[i].name for i in range(model.rowCount()))


def test_the_kernel_list_shows_one_step_or_all(make_window, qtbot, tmp_path: Path) -> None:
    window = make_window()
    profile = stepped_report(tmp_path, cuts=[0, 2])
    write_step_list(profile.paths[0], [True, True])
    session = document_from_profile(profile)
    window.selection.set_document(session.document, session)
    settle(qtbot, window)
    step = window.kernels.step
    assert step.isVisible()
    assert [step.itemText(i) for i in range(step.count())] == [
        "All steps (4 launches)",
        "prefill 0 (2 launches)",
        "decode 0 (2 launches)",
    ]
    everything = _names(window)
    kernels = [k.name for k in profile.kernels()]
    step.setCurrentIndex(2)
    assert _names(window) == sorted(kernels[2:])
    # the step's time, not the whole report's: its kernels make all of it
    model = window.kernels.model
    assert sum(model.rows[i].share for i in range(model.rowCount())) == 1.0
    step.setCurrentIndex(0)
    assert _names(window) == everything
    # another report: no choice of steps
    assert window.open_path(H200_REPORT)
    settle(qtbot, window)
    assert not step.isVisible() and step.count() == 0
