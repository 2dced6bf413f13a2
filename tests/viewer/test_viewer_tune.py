"""Tuning in the window (issue 21 points 1 and 4): the Tune action on the kernel list and the
Headroom list, its dialog running core's tuning on this machine's CPU for real (the same code
measures on a GPU), Cancel-free and bad-input paths, "Build with these records", the Build
dialog's Tuning records field and the kernel list saying which kernels came from a record;
Build & Profile Tuned (point 5): the tuned build profiled and opened compared with the untuned
run by itself, speedups in the kernel list, the Headroom list recomputed."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from details_support import unlaunched_workspace
from paths_support import DATA, DLIGHT_DB, STOCK_DB
from PySide6.QtCore import Qt
from viewer_support import WORKSPACE, settle, settle_all

from kernelscope.core.ncu import KernelSummary
from kernelscope.core.toolchain import local_gpu_arch
from kernelscope.core.tuning import TuningResult
from kernelscope.core.workspace import TunedFrom, Workspace
from kernelscope.viewer.build_profile import BuildProfileFeature
from kernelscope.viewer.build_profile.build_dialog import BuildDialog
from kernelscope.viewer.compare import CompareFeature
from kernelscope.viewer.details import DetailsFeature
from kernelscope.viewer.panels.kernel_list_model import TUNED, tuned_column, tuned_text
from kernelscope.viewer.tuning import TuningFeature
from kernelscope.viewer.tuning.gain_dialog import GainDialog
from kernelscope.viewer.tuning.tune_dialog import TuneDialog
from kernelscope.viewer.tuning.tune_job import NO_GPU
from kernelscope.viewer.widgets.roles import KeyRole

pytestmark = pytest.mark.heavy  # minutes of tuning: scheduled first (conftest)

MODEL = DATA / "models" / "tiny_mlp.py"
KERNEL = "fused_matmul_add_relu_kernel"
TASK = "fused_matmul_add_relu"


def _dialog(window: object) -> TuneDialog:
    dialog = window.findChild(TuneDialog, "tune_dialog")  # type: ignore[attr-defined]
    assert dialog is not None
    return dialog


def test_tune_is_one_action_in_both_context_menus(qtbot, make_window) -> None:
    window = make_window()
    action = window.action("tune")
    assert not action.isEnabled()  # nothing open: nothing to tune
    assert action in window.kernels.table.actions()
    assert action in window.feature(DetailsFeature).headroom_panel.table.actions()
    menu = window.feature(DetailsFeature).headroom_panel.table.contextMenuPolicy()
    assert menu == Qt.ContextMenuPolicy.ActionsContextMenu
    window.open_path(WORKSPACE)
    settle(qtbot, window)
    assert action.isEnabled()
    settle_all(qtbot, window)  # every job done: no later refill of the list clears the choice
    window.kernels.table.selectRow(0)
    selected = window.kernels.selected_names()
    assert selected
    action.trigger()
    dialog = _dialog(window)
    assert dialog.kernels == selected and dialog.selected.isChecked()
    assert selected[0] in dialog.selected.text()


def test_tune_from_the_headroom_list_takes_its_row_and_its_savings(
    qtbot, make_window, tmp_path: Path
) -> None:
    window = make_window(unlaunched_workspace(tmp_path, profiled=True))
    panel = window.feature(DetailsFeature).show_pane("headroom")
    settle(qtbot, window)
    second = panel.proxy.data(panel.proxy.index(1, 0), KeyRole)  # the 2nd most µs to save
    panel.table.selectRow(1)
    assert window.kernels.selected_names() != [second]  # the kernel list's is another
    window.activateWindow()
    panel.table.setFocus()
    qtbot.waitUntil(panel.table.hasFocus)
    window.action("tune").trigger()
    dialog = _dialog(window)
    assert dialog.kernels == [second]
    assert panel.headroom is not None
    assert dialog.savings_us == {r.kernel: r.savings_us for r in panel.headroom.rows}
    dialog.top.setChecked(True)
    request = dialog.request()
    assert request.top == 3 and not request.kernels and request.savings_us == dialog.savings_us


def test_the_tuned_column_says_a_records_speedup() -> None:
    column = tuned_column()
    measured = KernelSummary("k", tuned=TunedFrom(trials=64, best_us=3.0, default_us=6.0))
    stock = KernelSummary("k", tuned=TunedFrom(trials=5, best_us=96.0))
    assert column.text(measured) == "2.00×" and column.text(stock) == "record"
    assert column.text(KernelSummary("k")) == ""
    assert tuned_text(measured) == (
        "built from a tuning record: 64 trials, best 3 µs against the default schedule's 6 µs"
        " (the tuning's times, at the GPU's boost clock: not comparable with the Time column's,"
        " profiled at base clocks)"
    )
    assert "the default schedule was not measured" in tuned_text(stock)


def test_the_kernel_list_says_the_tuning_times_are_not_the_profiles(qtbot) -> None:
    """A real tuned build (SqueezeNet's conv, 8 trials on the H200, trimmed to that kernel):
    the record's times (MetaSchedule's, at boost clocks) sit in the tooltips beside ncu's
    Time column (base clocks, about 1.37x longer on an H100); the header and rows say so."""
    from kernelscope.core.view import open_document
    from kernelscope.viewer.panels.kernel_list_model import KernelListModel

    model = KernelListModel()
    model.set_document(open_document(DATA / "kernel_db" / "cp_async").document)
    horizontal = Qt.Orientation.Horizontal
    titles = [model.headerData(c, horizontal) for c in range(model.columnCount())]
    column = titles.index(TUNED)
    header = model.headerData(column, horizontal, Qt.ItemDataRole.ToolTipRole)
    assert (
        "The times in each row's tooltip are the tuning's: tuning times are MetaSchedule's own "
        "(the kernel alone, the GPU at its boost clock), profiled times Nsight Compute's with "
        "clocks locked to base"
    ) in header
    assert "about 1.37x longer on an H100" in header
    row = model.data(model.index(0, column), Qt.ItemDataRole.ToolTipRole)
    assert (
        "best 21.66 µs against the default schedule's 53.75 µs (the tuning's times, at the "
        "GPU's boost clock: not comparable with the Time column's, profiled at base clocks)"
    ) in row


def test_a_kept_default_schedule_is_said_so_not_claimed_tuned() -> None:
    """The H200's ResNet-50 case: the record applied is the default schedule, no candidate
    beat it; the kernel list, ``kernelscope build``'s table and the kernel DB say so."""
    from kernelscope.core.cli.build import schedule_of
    from kernelscope.core.cli.tune import speedup_text
    from kernelscope.core.kernel_db import describe_tuning
    from kernelscope.core.tuning.gain import _record_of
    from kernelscope.core.workspace.manifest import KernelInfo

    kept = TunedFrom(trials=8, best_us=554.13, default_us=414.89, default_kept=True)
    said = "default schedule kept (no candidate beat it: best 554.1 µs vs default 414.9 µs)"
    assert tuned_column().text(KernelSummary("k", tuned=kept)) == "default kept"
    assert (
        tuned_text(KernelSummary("k", tuned=kept)) == f"{said} (the tuning's times, at the "
        "GPU's boost clock: not comparable with the Time column's, profiled at base clocks)"
    )
    kernel = KernelInfo("k", "k.cu", "f", [1, 1, 1], [1, 1, 1], 0, [], [], tuned=kept)
    assert schedule_of(kernel) == said
    assert _record_of(kernel) is None  # tune-gain: the default schedule, no tuned record
    tuning = {"schedule": "default", "trials": 8, "best_us": 554.13, "default_us": 414.89}
    assert describe_tuning({**tuning, "tuning_db": "/db"}) == f"{said} (from /db)"
    task = {"best_us": 554.13, "default_us": 414.89}
    assert speedup_text({**task, "default_kept": True}) == "default kept"
    assert speedup_text({**task, "default_kept": False}) == "0.75x"


def test_the_dialog_says_how_the_top_kernels_were_ranked(
    qtbot, make_window, tmp_path: Path
) -> None:
    """A real build's manifest (fixture_mlp, sm_90) with no profile and no Headroom list:
    the top N are the kernels with the longest operator-bound time (an estimate), and the
    dialog says so once the run is planned, as ``kernelscope tune --top`` prints it."""
    from kernelscope.viewer.tuning.tune_job import TuneRequest, TuneStarted, plan_of

    ws = tmp_path / "mlp"
    shutil.copytree(DATA / "ws_ops" / "mlp", ws)
    shutil.copy(DATA / "models" / "fixture_mlp.py", tmp_path)  # where the build read it
    window = make_window()
    dialog = TuneDialog(window.workers, ws, [], window, settings=window.settings)
    qtbot.addWidget(dialog)
    request = dialog.request()
    assert request.top == 3 and request.savings_us is None
    plan = plan_of(TuneRequest(**{**request.__dict__, "database": tmp_path / "db"}))
    assert plan.tasks[:2] == ["transpose", "transpose1"]  # not the first by name
    dialog.show()
    dialog._on_started(TuneStarted(tuple(plan.tasks), plan.database, plan.ranking))
    assert dialog.ranking.isVisible()
    assert dialog.ranking.text().startswith(
        "The top 3, no profile is attached: ranked by each kernel's operator-bound time"
    )
    assert "H100 SXM5 (the sm_90 reference)" in dialog.ranking.text()


def test_bad_input_is_told_in_the_dialog(qtbot, make_window, tmp_path: Path) -> None:
    window = make_window(WORKSPACE)
    dialog = TuneDialog(window.workers, WORKSPACE, [], window, settings=window.settings)
    qtbot.addWidget(dialog)
    assert not dialog.selected.isEnabled() and dialog.top.isChecked()  # nothing selected
    dialog.use_tracker.setChecked(True)
    dialog.start.click()
    assert "HOST:PORT" in dialog.status.text() and dialog.job is None
    dialog.tracker.setText("gpu-gate")
    dialog.key.setText("h200")
    dialog.cpu.setChecked(True)
    dialog.start.click()  # refused by the job's plan check: no port
    qtbot.waitUntil(lambda: dialog.job is None and "Cannot tune" in dialog.status.text())
    assert "expected HOST:PORT" in dialog.status.text()
    assert not dialog.build_button.isEnabled()


@pytest.mark.skipif(local_gpu_arch() is not None, reason="this machine has a GPU to measure on")
def test_without_a_gpu_or_a_host_the_dialog_says_measuring_needs_one(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    dialog = TuneDialog(window.workers, WORKSPACE, ["softmax_kernel"], window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.note.isVisible())
    assert dialog.note.text() == NO_GPU and not dialog.start.isEnabled()
    dialog.cpu.setChecked(True)  # the CPU path needs no GPU
    assert not dialog.note.isVisible() and dialog.start.isEnabled()
    dialog.use_tracker.setChecked(True)  # nor does a tracker's GPU
    dialog.cpu.setChecked(False)
    assert dialog.start.isEnabled()


@pytest.fixture(scope="module")
def mlp_ws(build_once: Callable[..., object]) -> Path:
    return build_once("tiny_mlp.py").path  # type: ignore[attr-defined]


@pytest.mark.slow
def test_tuning_from_the_window_on_the_cpu_then_build_with_the_records(
    qtbot, make_window, mlp_ws: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "mlp.kscope"
    shutil.copytree(mlp_ws, ws)
    window = make_window(ws)
    window.selection.show(KERNEL)
    settle(qtbot, window)
    window.feature(TuningFeature).tune([KERNEL])
    dialog = _dialog(window)
    dialog.cpu.setChecked(True)
    dialog.trials.setValue(2)
    dialog.population = 16  # a round of the CPU search costs seconds on two shared cores
    dialog.start.click()
    assert dialog.job is not None and not dialog.start.isEnabled()
    assert dialog.cancel.text() == "Cancel"
    qtbot.waitUntil(lambda: dialog.job is None, timeout=600_000)
    result = dialog.outcome
    assert result is not None, dialog.status.text()
    assert not result.cancelled and result.records >= 2
    assert result.database == (ws / "tuning").resolve()
    assert [dialog.tasks.item(r, 0).text() for r in range(dialog.tasks.rowCount())] == [TASK]
    row = dialog.tasks.item(0, 1).text()
    assert row.startswith("2 trials") and "best" in row and "default" in row, row
    assert "records in" in dialog.status.text()
    assert dialog.build_button.isEnabled() and dialog.cancel.text() == "Close"
    dialog.build_button.click()
    build = window.findChild(BuildDialog, "build_dialog")
    assert build is not None
    assert build.tvm.tuning_db.text() == str(result.database) and build.tvm.build.isChecked()
    assert build.request().tuning_db == result.database


@pytest.mark.slow
def test_the_build_dialogs_records_reach_the_build_and_the_list_says_which(
    qtbot, make_window, tmp_path: Path
) -> None:
    window = make_window()
    dialog = window.feature(BuildProfileFeature).build_and_profile(MODEL)
    dialog.output.setText(str(tmp_path / "mlp.kscope"))
    dialog.tvm.tuning_db.setText(str(STOCK_DB))
    dialog.profile.setChecked(False)
    dialog.show()
    with qtbot.waitSignal(dialog.finished_document, timeout=300_000):
        dialog.start.click()
    settle(qtbot, window)
    assert Workspace.open(tmp_path / "mlp.kscope").manifest.tuning_db == str(STOCK_DB.resolve())
    model = window.kernels.model
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    column = titles.index(TUNED)
    assert column <= 2  # beside the name, in sight
    tuned = model.index(model.row_of(KERNEL), column)
    assert model.data(tuned) == "record"  # stock TVM measured no default schedule
    assert "built from a tuning record" in model.data(tuned, Qt.ItemDataRole.ToolTipRole)
    plain = model.index(model.row_of("softmax_kernel"), column)
    assert model.data(plain) == ""
    # a rebuild of this workspace starts with its records
    ws = Workspace.open(tmp_path / "mlp.kscope")
    again = BuildDialog(window.workers, window, settings=window.settings, workspace=ws)
    assert again.tvm.tuning_db.text() == str(STOCK_DB.resolve())


@pytest.mark.slow
def test_cancel_keeps_what_was_measured(qtbot, make_window, mlp_ws: Path, tmp_path: Path) -> None:
    window = make_window(mlp_ws)
    db = tmp_path / "records"
    dialog = TuneDialog(
        window.workers, mlp_ws, [KERNEL, "softmax_kernel"], window, settings=window.settings
    )
    qtbot.addWidget(dialog)
    dialog.database_field.setText(str(db))
    dialog.cpu.setChecked(True)
    dialog.trials.setValue(2)
    dialog.population = 16
    dialog.start.click()

    def first_task_measured() -> bool:
        item = dialog.tasks.item(0, 1) if dialog.tasks.rowCount() else None
        return item is not None and item.text().startswith("2 trials")

    qtbot.waitUntil(first_task_measured, timeout=600_000)
    dialog.cancel.click()  # the second task is still being tuned
    assert not dialog.cancel.isEnabled()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=120_000)
    outcome = dialog.outcome
    assert outcome is not None and outcome.cancelled, dialog.status.text()
    assert outcome.records >= 2 and outcome.database == db.resolve()
    assert f"the {outcome.records} records measured so far are kept" in dialog.status.text()
    assert dialog.build_button.isEnabled()  # what was measured can be built from


CONV = "fused_conv2d_add_relu_kernel"


def _column_text(model: object, kernel: str, title: str) -> str:
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    return model.data(model.index(model.row_of(kernel), titles.index(title)))


@pytest.mark.slow
def test_build_and_profile_tuned_opens_the_tuned_run_compared_with_the_untuned(
    qtbot, make_window, ws_with_profile: Path, gpu_here: Path
) -> None:
    window = make_window(ws_with_profile)
    window.feature(TuningFeature).tune([CONV])
    tune = _dialog(window)
    assert not tune.gain_button.isEnabled()  # nothing tuned yet
    tune._on_returned(TuningResult(DLIGHT_DB, records=1))  # as a finished run ends
    tune._on_job_finished()
    assert tune.gain_button.isEnabled()
    tune.gain_button.click()
    gain = window.findChild(GainDialog, "gain_dialog")
    assert gain is not None
    # the job starts once the report's host is read; a quick one may be over by the next look
    qtbot.waitUntil(lambda: gain.job is not None or gain.outcome is not None, timeout=60_000)
    if gain.job is not None:  # while it runs: Cancel offered, Start off
        assert gain.cancel.text() == "Cancel" and not gain.start.isEnabled()
    qtbot.waitUntil(lambda: gain.job is None, timeout=600_000)
    outcome = gain.outcome
    assert outcome is not None and outcome.compared, gain.status.text()
    assert "opened in compare mode" in gain.status.text()
    assert "the GPU at its boost clock" in gain.status.text()  # the Tuned column's times
    tuned = ws_with_profile.parent / "small_cnn-tuned.kscope"
    controller = window.feature(CompareFeature).mode.controller
    qtbot.waitUntil(lambda: controller.diff is not None, timeout=120_000)
    settle(qtbot, window)
    document = window.selection.document
    assert document is not None and document.workspace_path == tuned
    assert controller.baseline is not None
    assert controller.baseline.path == ws_with_profile / "profiles" / "earlier.ncu-rep"
    # the kernel list: the measured speedup of each kernel and the record it was built from
    model = window.kernels.model
    assert _column_text(model, CONV, "Speedup") == "1.00×"
    assert _column_text(model, CONV, TUNED) == "1.00×"  # the record is the default schedule
    assert _column_text(model, "max_pool2d_kernel", TUNED) == ""
    # the Headroom list recomputed on the tuned run, the untuned run's beside it
    panel = window.feature(DetailsFeature).show_pane("headroom")
    qtbot.waitUntil(lambda: panel.baseline_headroom is not None, timeout=60_000)
    settle(qtbot, window)
    titles = [c.title for c in panel.model.columns]
    assert titles[1:3] == ["Savings µs", "Before µs"]
    row = panel.model.rows[panel.model.row_of(CONV)]
    assert panel.model.columns[2].text(row) == panel.model.columns[1].text(row)  # same code
    assert "Recomputed on this run" in panel.caption.text()
    window.feature(CompareFeature).stop()
    settle(qtbot, window)
    assert [c.title for c in panel.model.columns][2] != "Before µs"


@pytest.mark.slow
def test_build_and_profile_tuned_without_a_gpu_or_with_records_of_another_model(
    qtbot, make_window, ws_with_profile: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KERNELSCOPE_NCU", str(tmp_path / "no-ncu-here"))
    # the untuned report was made on a host: Profile on starts there
    settings = ws_with_profile / "profiles" / "earlier.ncu-rep.settings.json"
    settings.write_text('{"host": "me@gpu-box", "set": null}')
    window = make_window(ws_with_profile)
    action = window.action("build_tuned")
    assert action.isEnabled()
    action.trigger()
    gain = window.findChild(GainDialog, "gain_dialog")
    assert gain is not None
    qtbot.waitUntil(lambda: gain.recorded_host is not None)
    assert gain.host.where.currentText() == "me@gpu-box"
    assert gain.job is None  # from the menu: it waits for its fields
    gain.host.set_host(None)  # this machine, which has no GPU
    assert gain.records.text() == str(ws_with_profile / "tuning")
    gain.records.setText(str(STOCK_DB))  # tiny_mlp's records
    gain.start.click()
    qtbot.waitUntil(lambda: gain.job is None, timeout=600_000)
    assert "none of the records" in gain.status.text()
    assert "--tuning-db" not in gain.status.text() and "Tune…" in gain.status.text()
    tuned = ws_with_profile.parent / "small_cnn-tuned.kscope"
    assert not tuned.exists()
    gain.records.setText(str(DLIGHT_DB))
    gain.start.click()
    qtbot.waitUntil(lambda: gain.job is None, timeout=600_000)
    text = gain.status.text()
    assert "but not profiled" in text and "ncu) is not installed here" in text, text
    assert f"kernelscope profile {tuned}" in text and "kernelscope diff" in text
    assert Workspace.open(tuned).manifest.kernel(CONV).tuned is not None
    assert not window.feature(CompareFeature).mode.active  # nothing to compare: nothing opened


@pytest.mark.slow
def test_cancel_while_the_tuned_build_is_profiled_leaves_no_report(
    qtbot, make_window, ws_with_profile: Path, gpu_here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NCU_SLEEP", "60")  # ncu takes its time
    window = make_window(ws_with_profile)
    gain = window.feature(TuningFeature).build_tuned(str(DLIGHT_DB))
    assert gain is not None
    qtbot.waitUntil(lambda: "profiling" in gain.status.text(), timeout=600_000)
    gain.cancel.click()
    assert not gain.cancel.isEnabled()
    qtbot.waitUntil(lambda: gain.job is None, timeout=60_000)
    assert gain.status.text().startswith("Cancelled") and gain.bar.format() == "cancelled"
    tuned = ws_with_profile.parent / "small_cnn-tuned.kscope"
    assert Workspace.open(tuned).profiles() == [] and not list((tuned / "profiles").iterdir())
    assert sorted(p.name for p in (ws_with_profile / "profiles").iterdir()) == ["earlier.ncu-rep"]
    assert not window.feature(CompareFeature).mode.active and gain.start.isEnabled()


def test_add_records_from_merges_another_database_into_the_records_folder(
    qtbot, make_window, tmp_path: Path
) -> None:
    """The Tune dialog's "Add Records From…" (kernelscope tune-merge) off the GUI thread: the
    records are added and can be built from; a database of another TVM version is refused in
    the dialog and the records folder stays as it was."""
    import json

    from kernelscope.core.build.records import META
    from kernelscope.core.tuning.plan import count_records

    window = make_window(WORKSPACE)
    dialog = TuneDialog(window.workers, WORKSPACE, [], window, settings=window.settings)
    qtbot.addWidget(dialog)
    db = tmp_path / "db"
    shutil.copytree(DLIGHT_DB, db)
    dialog.database_field.setText(str(db))
    assert dialog.add_button.isEnabled() and not dialog.build_button.isEnabled()
    dialog.add_records_from(DATA / "tuning" / "dlight_small_cnn_pool")
    assert dialog.job is not None and not dialog.add_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=120_000)
    assert "Records added from" in dialog.status.text(), dialog.status.text()
    assert "pool: 1 (0 already there)" in dialog.status.text()
    assert "2 records in" in dialog.status.text()
    assert sum(count_records(db).values()) == 2
    assert dialog.build_button.isEnabled()  # build with the merged records

    other = tmp_path / "other"
    shutil.copytree(STOCK_DB, other)
    (other / META).write_text(json.dumps({"tvm": "0.19.0"}))
    before = {p.name: p.read_bytes() for p in db.iterdir()}
    dialog.add_records_from(other)
    qtbot.waitUntil(lambda: dialog.job is None, timeout=120_000)
    assert "Cannot add the records" in dialog.status.text()
    assert "tuned with TVM 0.19.0" in dialog.status.text()
    assert {p.name: p.read_bytes() for p in db.iterdir()} == before
