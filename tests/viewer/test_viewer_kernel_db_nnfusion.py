"""The Kernel DB panel's NNFusion side (issue 12), driven through the window: the exact
command line (copied, and run by the real NNFusion when $KERNELSCOPE_NNFUSION is set), the
GPU it reads times for, per-row verdicts with the reason, export options, a model's
coverage with Build missing (real TVM builds) and Cancel, and bad input shown in the tab."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from nnfusion_models import nnfusion_binary, residual_cnn, run_printed, square_gemm, square_matmul
from paths_support import DATA, H200_REPORT
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox
from viewer_support import settle

from kernelscope.core import kernel_db
from kernelscope.core.build import BuildRequest, build_model
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.kernel_db import KernelDB, export_workspace, model_coverage
from kernelscope.viewer.app import run
from kernelscope.viewer.kernel_db import KernelDbFeature
from kernelscope.viewer.kernel_db.export_options import ExportOptionsDialog
from kernelscope.viewer.kernel_db.export_worker import ExportOptions
from kernelscope.viewer.kernel_db.jobs import coverage_of
from kernelscope.viewer.kernel_db.model import NNFUSION, WHY, KernelDbModel
from kernelscope.viewer.kernel_db.nnfusion_coverage_model import STATUS, CoverageModel

MODELS = DATA / "models"
BUILD_MS = 600_000  # a TVM build of a few single-operator kernels, on a busy machine


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """``built(maker)`` -> (model, workspace path), each test model built once per module."""
    root = tmp_path_factory.mktemp("nnf-gui-models")
    done: dict[str, tuple[Path, Path]] = {}

    def build(maker) -> tuple[Path, Path]:  # noqa: ANN001
        name = maker.__name__ if callable(maker) else Path(maker).stem
        if name not in done:
            model = maker(root / f"{name}.onnx") if callable(maker) else Path(maker)
            ws = build_model(BuildRequest(model=model, output=root / f"{name}.kscope"))
            done[name] = (model, ws.path)
        return done[name]

    return build


def copied(built_pair: tuple[Path, Path], folder: Path) -> tuple[Path, Path]:
    """The model and its workspace side by side in ``folder`` (a copy written next to the
    workspace stays the test's own)."""
    model, ws = built_pair
    shutil.copy(model, folder / model.name)
    shutil.copytree(ws, folder / ws.name)
    return folder / model.name, folder / ws.name


def _export(qtbot, window, action: str = "export_all") -> QMessageBox:
    window.action(action).trigger()
    settle(qtbot, window)
    qtbot.waitUntil(lambda: any(b.isVisible() for b in window.findChildren(QMessageBox)))
    return next(b for b in window.findChildren(QMessageBox) if b.isVisible())


def _coverage(qtbot, window, model: Path | str):
    view = window.feature(KernelDbFeature).panel.coverage
    view.set_model(model)
    settle(qtbot, window)
    return view


def _rows(panel) -> list[tuple[str, str, str, str]]:
    """(kernel, NNFusion, why, tooltip) of every listed entry."""
    m = panel.model
    return [
        (
            m.entry(r).kernel_name,
            m.data(m.index(r, NNFUSION)),
            m.data(m.index(r, WHY)),
            m.data(m.index(r, NNFUSION), Qt.ItemDataRole.ToolTipRole),
        )
        for r in range(m.rowCount())
    ]


def _statuses(view) -> dict[str, str]:
    """identifier -> status of every lookup the coverage tab lists."""
    m = view.model
    return {m.item(r).identifier: m.data(m.index(r, STATUS)) for r in range(m.rowCount())}


def test_export_options_write_the_nnfusion_model_and_the_copied_command_works(
    qtbot, make_window, build_once, tmp_path: Path
) -> None:
    """The small CNN with its H200 report: Export with "write the model NNFusion compiles",
    the command tab gives the command for that model and GPU, Copy puts it on the
    clipboard, and the real NNFusion runs it and fetches every usable row."""
    ws = build_once("small_cnn.onnx")
    shutil.copy(MODELS / "small_cnn.onnx", tmp_path / "small_cnn.onnx")
    workspace = tmp_path / "small_cnn.kscope"
    shutil.copytree(ws.path, workspace)
    (workspace / "profiles").mkdir(exist_ok=True)
    shutil.copy(H200_REPORT, workspace / "profiles" / H200_REPORT.name)
    window = make_window(workspace)
    panel = window.feature(KernelDbFeature).panel
    db = tmp_path / "kernels.db"
    with qtbot.waitSignal(panel.listed):
        panel.set_path(db)
    window.action("export_options").trigger()
    dialog = next(d for d in panel.findChildren(ExportOptionsDialog) if d.isVisible())
    assert not dialog.nnfusion_model.isChecked() and not dialog.allow_ambiguous.isChecked()
    dialog.nnfusion_model.setChecked(True)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert panel.export_options() == ExportOptions(nnfusion_model=True)
    box = _export(qtbot, window)
    copy = tmp_path / "small_cnn-nnfusion.onnx"
    assert copy.is_file() and f"Wrote {copy.name} for NNFusion" in box.informativeText()
    box.close()
    settle(qtbot, window)
    # The export's model is the coverage tab's; the command is for it.
    assert panel.coverage.model_path == copy and panel.coverage.coverage is not None
    window.action("nnfusion_command").trigger()
    assert (
        window.feature(KernelDbFeature).dock.isVisible()
        and panel.tabs.currentWidget() is panel.commands
    )
    commands = panel.commands
    commands.copy_button.click()
    argv = shlex.split(QGuiApplication.clipboard().text())
    assert argv == [
        "nnfusion", str(copy), "-f", "onnx", f"-fkernel_cache_path={db.resolve()}",
        "-fproduct_name=NVIDIA H200", "-fbiasadd_fix=true",
    ]  # fmt: skip
    why = commands.why.text()
    assert "2 of 2 usable rows carry a time measured on NVIDIA H200" in why
    assert "per-channel bias" in why and "Warning" not in why
    assert commands.gpu.itemText(1) == "NVIDIA H200 (2 rows)"
    binary = nnfusion_binary()  # the rest needs the real NNFusion
    rc, log, _ = run_printed([str(binary), *argv[1:]], binary, tmp_path / "nnf")
    assert rc == 0, log.last_lines()
    with KernelDB.open(db) as kdb:
        usable = {r.identifier for r in kdb.cache_rows() if r.usable and r.twin_of is None}
    assert len(usable) == 2 and usable <= {i for i, _ in log.fetched}


def test_the_gpu_box_warns_about_several_gpus_and_refuses_one_without_times(
    qtbot, make_window, build_once, tmp_path: Path
) -> None:
    ws = build_once("small_cnn.onnx")
    two = tmp_path / "two.db"
    times = {
        "fused_conv2d_add_relu_kernel": ("NVIDIA H200", 6000.0),
        "max_pool2d_kernel": ("NVIDIA A100", 3000.0),
    }
    export_workspace(ws, two, times=times)
    window = make_window()
    panel = window.feature(KernelDbFeature).panel
    with qtbot.waitSignal(panel.command_shown):
        panel.set_path(two)
    commands = panel.commands
    why = commands.why.text()
    assert "times were measured on several GPUs" in why and "NVIDIA A100" in why
    gpus = [commands.gpu.itemText(i) for i in range(commands.gpu.count())]
    assert gpus[1:] == ["NVIDIA A100 (1 row)", "NVIDIA H200 (1 row)"]
    with qtbot.waitSignal(panel.command_shown):
        commands.choose_gpu("NVIDIA H200")
    assert "'-fproduct_name=NVIDIA H200'" in commands.command_text
    # A GPU no row was timed on: said in the tab, with the GPUs that have times.
    with qtbot.waitSignal(panel.command_shown):
        commands.gpu.setFocus()
        commands.gpu.lineEdit().selectAll()
        qtbot.keyClicks(commands.gpu.lineEdit(), "NVIDIA B200")
        qtbot.keyClick(commands.gpu.lineEdit(), Qt.Key.Key_Return)
    why = commands.why.text()
    assert "no row of this DB has a time measured on &#x27;NVIDIA B200&#x27;" in why
    assert (
        "NVIDIA A100 (1 row)" in why and "-fproduct_name=NVIDIA B200" not in commands.command_text
    )
    assert not any(b.isVisible() for b in window.findChildren(QMessageBox)), "in the tab"


def test_only_a_gpu_without_times_falls_back_to_the_dbs_own(
    build_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coverage tab's job retries without the chosen GPU only when the DB has no time of
    it; a model it cannot read is said at once, not read a second time for the DB's GPU."""
    db = tmp_path / "empty.db"
    with KernelDB.open(db, write=True):
        pass
    bad = tmp_path / "text.onnx"
    bad.write_text("not a model", encoding="utf-8")
    asked: list[str | None] = []
    real = kernel_db.model_coverage

    def noting(model: Path, path: Path, product: str | None = None) -> object:
        asked.append(product)
        return real(model, path, product)

    monkeypatch.setattr(kernel_db, "model_coverage", noting)
    with pytest.raises(KernelscopeError, match="not a readable ONNX model"):
        coverage_of(bad, db, "NVIDIA H200")
    assert asked == ["NVIDIA H200"]
    # a DB timed on another GPU: the coverage is for the DB's GPU, with why
    ws = build_once("small_cnn.onnx")
    a100 = tmp_path / "a100.db"
    export_workspace(ws, a100, times={"max_pool2d_kernel": ("NVIDIA A100", 3000.0)})
    result = coverage_of(MODELS / "small_cnn.onnx", a100, "NVIDIA H200")
    assert "no row of this DB has a time measured on 'NVIDIA H200'" in result.note
    assert result.coverage.settings.flags.product_name == "NVIDIA A100"
    assert asked[1:] == ["NVIDIA H200", None]


def test_a_db_timed_on_another_gpu_than_the_open_profile_is_pointed_out(
    qtbot, make_window, build_once, tmp_path: Path
) -> None:
    ws = build_once("small_cnn.onnx")
    a100 = tmp_path / "a100.db"
    export_workspace(ws, a100, times={"max_pool2d_kernel": ("NVIDIA A100", 3000.0)})
    window = make_window(H200_REPORT)  # a profile measured on an H200
    panel = window.feature(KernelDbFeature).panel
    with qtbot.waitSignal(panel.command_shown):
        panel.set_path(a100)
    settle(qtbot, window)
    commands = panel.commands
    assert "'-fproduct_name=NVIDIA A100'" in commands.command_text
    assert "the open profile ran on NVIDIA H200" in commands.why.text()
    index = commands.gpu.findData("NVIDIA H200")
    assert commands.gpu.itemText(index) == "NVIDIA H200 (the open profile's; no row)"
    with qtbot.waitSignal(panel.command_shown):
        commands.choose_gpu("NVIDIA H200")
    assert "no row of this DB has a time measured on" in commands.why.text()


def test_ambiguous_dot_rows_say_why_until_the_option_lets_nnfusion_use_them(
    qtbot, make_window, built, tmp_path: Path
) -> None:
    """TVM's x·W kernel for a square W: kept from NNFusion with the reason (a Gemm with
    transB=1 looks up its identifier); allowed, it is usable and coverage says it is wrong
    for that Gemm."""
    _, ws = copied(built(square_matmul), tmp_path)
    gemm = square_gemm(tmp_path / "gemm.onnx")
    window = make_window(ws)
    panel = window.feature(KernelDbFeature).panel
    with qtbot.waitSignal(panel.listed):
        panel.set_path(tmp_path / "k.db")
    _export(qtbot, window).close()
    settle(qtbot, window)
    [(_, verdict, why, tip)] = [r for r in _rows(panel) if "A·B" in r[2]]
    assert verdict == "no, ambiguous" and "A·Bᵀ" in why and "--allow-ambiguous" not in why
    assert "Export options" in tip
    view = _coverage(qtbot, window, gemm)
    assert list(_statuses(view).values()) == ["flagged"] and not view.build_button.isEnabled()
    panel.set_export_options(ExportOptions(allow_ambiguous=True))
    _export(qtbot, window).close()
    settle(qtbot, window)
    assert any(r[1] == "yes, ambiguous" and "A·Bᵀ" in r[2] for r in _rows(panel))
    [item] = [view.model.item(r) for r in range(view.model.rowCount())]
    assert item.status == "wrong" and "A·Bᵀ" in item.why, "coverage follows the DB"
    # Double-click: the row that serves it, in Entries.
    panel.show_tab("coverage")
    cell = view.table.visualRect(view.proxy.index(0, 0)).center()
    with qtbot.waitSignal(panel.detail_shown):
        qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
        qtbot.mouseDClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert panel.tabs.currentIndex() == 0 and panel.selected_keys() == [item.row.key]
    assert panel.detail.key == item.row.key


def test_build_missing_runs_with_progress_and_cancel_and_leaves_nothing_missing(
    qtbot, make_window, built, tmp_path: Path
) -> None:
    model, ws = copied(built(residual_cnn), tmp_path)
    window = make_window(ws)
    panel = window.feature(KernelDbFeature).panel
    db = tmp_path / "k.db"
    with qtbot.waitSignal(panel.listed):
        panel.set_path(db)
    panel.set_export_options(ExportOptions(nnfusion_model=True))
    _export(qtbot, window).close()
    settle(qtbot, window)
    window.action("nnfusion_coverage").trigger()
    view = panel.coverage
    assert panel.tabs.currentWidget() is view
    assert view.model_path == tmp_path / "residual_cnn-nnfusion.onnx"
    before = view.coverage.counts()
    assert before["missing"] >= 3 and view.build_button.isEnabled()
    with KernelDB.open(db) as kdb:
        rows = kdb.count_entries(include_twins=True)
    # Cancel at once: the DB stays as it was.
    with qtbot.waitSignal(view.finished, timeout=BUILD_MS) as done:
        qtbot.mouseClick(view.build_button, Qt.MouseButton.LeftButton)
        assert view.busy_strip.isVisible() and view.busy_strip.cancel.isVisible()
        assert not view.build_button.isEnabled() and not view.check_button.isEnabled()
        qtbot.mouseClick(view.busy_strip.cancel, Qt.MouseButton.LeftButton)
    assert done.args == ["Cancelled: the DB is as it was."]
    with KernelDB.open(db) as kdb:
        assert kdb.count_entries(include_twins=True) == rows
    assert not view.busy_strip.isVisible() and view.build_button.isEnabled()
    listed = panel.model.rowCount()
    with qtbot.waitSignal(view.finished, timeout=BUILD_MS) as done:
        view.build_button.click()
    assert done.args[0].startswith("Built ") and f"missing {before['missing']} → 0" in done.args[0]
    settle(qtbot, window)
    after = view.coverage.counts()
    assert after["missing"] == 0 and after["covered"] == before["covered"] + before["missing"]
    assert panel.model.rowCount() > listed, "the entries list again"
    assert (tmp_path / "residual_cnn-nnfusion-missing.kscope" / "manifest.json").is_file()
    assert model.is_file()
    nnfusion_binary()  # the rest needs the real NNFusion
    with qtbot.waitSignal(view.finished, timeout=BUILD_MS) as done:
        view.check_button.click()
    assert "looked up exactly the identifiers listed here" in done.args[0]
    used = done.args[0].split("used ")[1].split(" rows")[0]  # "N of the N"
    assert used.split(" of the ")[0] == used.split(" of the ")[1]


def test_bad_models_are_explained_in_the_coverage_tab(
    qtbot, make_window, built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Weights as graph inputs (the initializer copy offered and written from the open
    workspace), an operator nobody follows, a file that is no ONNX, a Gemm NNFusion's
    importer crashes on; and the real NNFusion's failure with its log's last lines."""
    source, ws = copied(built(MODELS / "small_mlp_noparams.onnx"), tmp_path)
    window = make_window(ws)
    panel = window.feature(KernelDbFeature).panel
    empty = tmp_path / "empty.db"
    KernelDB.open(empty, write=True).close()
    with qtbot.waitSignal(panel.listed):
        panel.set_path(empty)
    panel.show_tab("coverage")
    view = _coverage(qtbot, window, source)
    assert view.coverage is None and "3 weights are graph inputs (fc1.weight" in view.banner.text()
    assert view.offer_button.isVisible() and ws.name in view.offer_button.text()
    with qtbot.waitSignal(view.finished):
        view.offer_button.click()
    settle(qtbot, window)
    copy = tmp_path / "small_mlp_noparams-nnfusion.onnx"
    assert view.model_path == copy and [i.name for i in onnx.load(str(copy)).graph.input] == [
        "input"
    ]
    assert view.coverage is not None and view.coverage.counts()["missing"] > 0
    assert not view.offer_button.isVisible()
    view.set_model(None)
    view.workspace_button.click()  # the workspace's model is now its NNFusion copy
    settle(qtbot, window)
    assert view.model_path == copy
    _coverage(qtbot, window, MODELS / "unsupported_op.onnx")
    assert "does not follow the ONNX nodes mystery_node (NotARealOp)" in view.banner.text()
    text = tmp_path / "notes.onnx"
    text.write_text("not a model")
    _coverage(qtbot, window, text)
    assert "not a readable ONNX model" in view.banner.text() and view.coverage is None
    gemm = square_gemm(tmp_path / "gemm.onnx")
    proto = onnx.load(str(gemm))
    attrs = proto.graph.node[0].attribute
    attrs.remove(next(a for a in attrs if a.name == "beta"))  # ONNX's default beta is 1
    onnx.save(proto, str(gemm))
    _coverage(qtbot, window, gemm)
    assert "NNFusion would crash" in view.banner.text()
    assert not any(b.isVisible() for b in window.findChildren(QMessageBox)), "all in the tab"
    _coverage(qtbot, window, square_matmul(tmp_path / "matmul.onnx"))
    with monkeypatch.context() as env:  # the check's own failure too: here, no NNFusion
        env.setenv("KERNELSCOPE_NNFUSION", str(tmp_path / "no-nnfusion"))
        with qtbot.waitSignal(view.finished):
            view.check_button.click()
    assert "no-nnfusion" in view.banner.text()
    assert not any(b.isVisible() for b in window.findChildren(QMessageBox))
    nnfusion_binary()  # the rest needs the real NNFusion
    _coverage(qtbot, window, MODELS / "unsupported_op.onnx")
    with qtbot.waitSignal(view.finished, timeout=BUILD_MS):
        view.check_button.click()
    banner = view.banner.text()
    assert "NNFusion failed on unsupported_op.onnx" in banner and "NotARealOp" in banner
    assert not any(b.isVisible() for b in window.findChildren(QMessageBox))


def test_models_pass_the_model_tester(qtmodeltester, build_once, tmp_path: Path) -> None:
    from kernelscope.core.kernel_db import row_verdict

    model = residual_cnn(tmp_path / "cnn.onnx")
    db = tmp_path / "k.db"
    export_workspace(build_once("small_cnn.onnx"), db)
    coverage = model_coverage(model, db)
    view = CoverageModel()
    view.set_items(coverage.items, None)
    assert view.rowCount() == len(coverage.items) > 0
    qtmodeltester.check(view)
    entries = KernelDbModel()
    with KernelDB.open(db) as kdb:
        entries.set_entries(kdb.list_entries())
        entries.set_verdicts({r.key: row_verdict(r) for r in kdb.cache_rows()})
    qtmodeltester.check(entries)


def test_screenshot_mode_shows_the_kernel_db_tabs(build_once, tmp_path: Path) -> None:
    """``kernelscope gui WS --screenshot PNG --pane ... --db DB --nnfusion-model M``, as a user
    runs it (its own process: an in-process screenshot leaves the QApplication unable to
    deliver later windows' jobs)."""
    ws = build_once("small_cnn.onnx")
    db = tmp_path / "k.db"
    export_workspace(ws, db)
    model = residual_cnn(tmp_path / "cnn.onnx")
    out = tmp_path / "coverage.png"
    args = [sys.executable, "-m", "kernelscope.core.cli", "gui", str(ws.path), "--screenshot"]
    extra = ["--pane", "nnfusion-coverage", "--db", str(db), "--nnfusion-model", str(model)]
    proc = subprocess.run(
        [*args, str(out), *extra, "--palette", "dark"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1600, 1000)
    bad = subprocess.run([*args, str(out), "--pane", "nowhere"], capture_output=True, text=True)
    assert bad.returncode != 0 and "invalid choice: 'nowhere'" in bad.stderr
    with pytest.raises(KernelscopeError, match="no pane"):
        run(screenshot_to=str(out), pane="nowhere")  # refused before any window is made


def test_the_workspace_model_is_found_where_it_was_built(
    qtbot, make_window, built, tmp_path: Path
) -> None:
    """A workspace away from its model (built with -o elsewhere, or the demo's) finds it where
    the build found it; a model gone since is said in the window's words (no --model)."""
    model = tmp_path / "models" / "small_cnn.onnx"
    model.parent.mkdir()
    shutil.copy(MODELS / "small_cnn.onnx", model)
    _, built_ws = built(MODELS / "small_cnn.onnx")
    ws = build_model(BuildRequest(model=model, output=tmp_path / "elsewhere" / built_ws.name))
    window = make_window(ws.path)
    panel = window.feature(KernelDbFeature).panel
    panel.show_tab("coverage")
    view = panel.coverage
    view.workspace_button.click()
    settle(qtbot, window)
    qtbot.waitUntil(lambda: view.model_path is not None)
    assert view.model_path == model.resolve()
    model.unlink()
    view.set_model(None)
    view.workspace_button.click()
    qtbot.waitUntil(lambda: any(b.isVisible() for b in window.findChildren(QMessageBox)))
    box = next(b for b in window.findChildren(QMessageBox) if b.isVisible())
    assert f"{model.resolve()}, where it was built from, is gone" in box.text()
    assert "Browse…" in box.informativeText() and "--model" not in box.informativeText()
    box.close()
    settle(qtbot, window)


def test_panes_and_boxes_say_what_to_do_in_the_window_s_words(qtbot) -> None:
    from kernelscope.viewer.dialogs.error_dialog import error_box
    from kernelscope.viewer.widgets.messages import error_html

    error = KernelscopeError(
        "cannot find m.onnx", hint="give its path with --model MODEL", window_hint="use Browse…"
    )
    text = error_html("Cannot find the model", error)
    assert "What to do: use Browse…" in text and "--model" not in text
    box = error_box(None, "Cannot find the model", error)
    assert box.informativeText() == "What to do: use Browse…"
    box.deleteLater()
    plain = error_html("x", KernelscopeError("m", hint="h"))
    assert plain.endswith("m<br>What to do: h")
