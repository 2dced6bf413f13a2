"""Every "field + Browse…" row of the dialogs (``file_dialogs.browse_row``): the file or
folder chosen fills its field, with what typing it there would start; a cancelled dialog
leaves the field as it was. The real dialogs' rows, clicked; only Qt's file dialog answers
for the user."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from paths_support import DATA
from PySide6.QtWidgets import QFileDialog, QLayout, QLineEdit, QPushButton
from viewer_support import WORKSPACE

from kernelscope.core.kernel_db import KernelDB
from kernelscope.viewer.build_profile.build_dialog import BuildDialog
from kernelscope.viewer.kernel_db.nnfusion_coverage import CoverageView
from kernelscope.viewer.tuning.gain_dialog import GainDialog

MODELS = DATA / "models"


class Chooser:
    """Qt's file dialogs, answering ``answer`` ("": Cancel) and noting each caption."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.answer = ""
        self.captions: list[str] = []
        monkeypatch.setattr(QFileDialog, "getOpenFileName", self._file)
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", self._folder)

    def _file(self, parent: object, caption: str, *args: object, **kw: object) -> tuple[str, str]:
        return self._folder(parent, caption), ""

    def _folder(self, parent: object, caption: str, *args: object, **kw: object) -> str:
        self.captions.append(caption)
        return self.answer


@pytest.fixture()
def chooser(monkeypatch: pytest.MonkeyPatch) -> Chooser:
    return Chooser(monkeypatch)


def _browse_of(field: QLineEdit) -> QPushButton:
    """The Browse… button in ``field``'s row."""

    def layouts(layout: QLayout) -> Iterator[QLayout]:
        yield layout
        for i in range(layout.count()):
            if (child := layout.itemAt(i).layout()) is not None:
                yield from layouts(child)

    parent = field.parentWidget()
    assert parent is not None and parent.layout() is not None
    for row in layouts(parent.layout()):
        widgets = [row.itemAt(i).widget() for i in range(row.count())]
        if field in widgets:
            return next(w for w in widgets if isinstance(w, QPushButton) and w.text() == "Browse…")
    raise AssertionError(f"no Browse… beside {field.objectName() or field.placeholderText()}")


def _browse(chooser: Chooser, field: QLineEdit, answer: str, caption: str) -> None:
    """Browse…, cancelled (the field stays), then ``answer`` chosen (it fills the field)."""
    button = _browse_of(field)
    assert button.isEnabled() and field.isEnabled()
    before = field.text()
    chooser.answer = ""
    button.click()
    assert field.text() == before
    chooser.answer = answer
    button.click()
    assert field.text() == answer
    assert chooser.captions[-2:] == [caption, caption]


def test_build_and_profiles_browse_rows_fill_their_fields(
    qtbot, make_window, chooser: Chooser, tmp_path: Path
) -> None:
    window = make_window()
    dialog = BuildDialog(window.workers, window, settings=window.settings)
    dialog.show()
    dialog.compiler.setCurrentText(dialog.torch.name)  # before a TVM model chooses TVM
    _browse(chooser, dialog.torch.python, str(tmp_path / "python"), "Python with PyTorch")
    model = str(MODELS / "llama_mlc.py")  # runs as steps: the Hook file row is shown
    dialog.tvm.build.setChecked(False)
    _browse(chooser, dialog.model, model, "Model")
    assert dialog.tvm.build.isChecked()  # a model browsed for is one to build
    assert dialog.output.text() == str(dialog.tvm.default_output(Path(model)))  # followed
    _browse(chooser, dialog.tvm.tuning_db, str(tmp_path), "Tuning records")
    dialog.host.where.setCurrentText("user@gpu-box")  # profiles there: Inputs and Hook on
    dialog.profile.setChecked(True)
    _browse(chooser, dialog.inputs, str(tmp_path / "inputs.npz"), "Inputs")
    assert not dialog.llm_steps.isHidden()
    _browse(chooser, dialog.llm_steps.hook, str(tmp_path / "loop.py"), "Hook file")
    _browse(chooser, dialog.host.identity, str(tmp_path / "id_ed25519"), "SSH identity file")
    dialog.close()


def test_tuned_gains_records_row_fills_its_field(
    qtbot, make_window, chooser: Chooser, tmp_path: Path
) -> None:
    window = make_window()
    gain = GainDialog(window.workers, WORKSPACE, parent=window, settings=window.settings)
    gain.show()
    qtbot.waitUntil(lambda: not window.workers.busy)  # the untuned report's host read
    _browse(chooser, gain.records, str(tmp_path), "Tuning records")
    gain.close()


def test_nnfusion_coverages_model_row_shows_the_models_coverage(
    qtbot, make_window, chooser: Chooser, tmp_path: Path
) -> None:
    window = make_window()
    view = CoverageView(window.workers)
    qtbot.addWidget(view)
    db = tmp_path / "kernels.db"
    KernelDB.open(db, write=True).close()
    with qtbot.waitSignal(view.coverage_shown):
        view.set_db(db)  # no model yet: no coverage
    model = MODELS / "small_cnn.onnx"
    with qtbot.waitSignal(view.coverage_shown, timeout=60_000) as shown:
        _browse(chooser, view.model_edit, str(model), "ONNX model")
    assert shown.args is not None and shown.args[0] is not None  # computed for the model
    assert view.coverage is not None and view.model_path == model
