"""File > Share as Web Page…: the open profile written off the GUI thread with progress, the
page's contents (the kernels selected in the list, compare mode's baseline), the offer to
open it, and a cancel that leaves an older page as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path

from paths_support import H200_REPORT, data_path
from PySide6.QtCore import QItemSelectionModel, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog
from viewer_support import settle

from kernelscope.viewer.compare import CompareFeature
from kernelscope.viewer.share import ShareFeature
from kernelscope.viewer.share.share_dialog import ShareDialog

COMPARE = data_path("compare")  # its reports unpacked beside its workspaces


def _data(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="ks-data">(.*?)</script>', text, re.S)
    assert block is not None
    return json.loads(block.group(1))


def _wait_shared(qtbot, dialog) -> None:
    qtbot.waitUntil(lambda: dialog.shared is not None or dialog.job is None, timeout=120_000)


def test_share_asks_for_a_file_writes_it_and_offers_to_open_it(
    qtbot, make_window, tmp_path: Path, monkeypatch
) -> None:
    window = make_window(H200_REPORT)
    assert window.action("share").isEnabled()
    target = tmp_path / "shared.html"
    asked = []

    def save_as(parent, title, name, filters, options=None):
        asked.append(name)
        return str(target), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    window.action("share").trigger()
    dialog = window.findChild(ShareDialog, "share_dialog")
    assert asked == ["small_cnn_h200.html"]
    assert dialog.isVisible() and dialog.cancel.text() == "Cancel"
    _wait_shared(qtbot, dialog)
    assert dialog.shared is not None and dialog.shared.path == target
    assert "Wrote" in dialog.status.text() and str(target) in dialog.status.text()
    assert dialog.cancel.text() == "Close" and dialog.open_button.isEnabled()
    data = _data(target)
    names = [s.name for s in window.selection.document.summaries]
    assert [k["name"] for k in data["kernels"]] == names
    assert len(data["views"]) == min(10, len(names))
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    dialog.open_button.click()
    assert opened == [QUrl.fromLocalFile(str(target))]
    assert not dialog.isVisible()


def test_the_selected_kernels_and_the_baseline_go_on_the_page(
    qtbot, make_window, tmp_path: Path, monkeypatch
) -> None:
    window = make_window(COMPARE / "cnn3_b8_run1.ncu-rep")
    monkeypatch.setattr(
        QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(COMPARE / "cnn3_b2.ncu-rep")], "")
    )
    window.action("compare_with").trigger()
    settle(qtbot, window)
    assert window.feature(CompareFeature).mode.active
    table = window.kernels.table
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    for row in (0, 1):
        index = table.model().index(row, 0)
        table.selectionModel().select(index, flags)
    chosen = set(window.kernels.selected_names())
    assert len(chosen) == 2
    dialog = window.feature(ShareFeature).share_web_page(tmp_path / "pair.html")
    _wait_shared(qtbot, dialog)
    data = _data(tmp_path / "pair.html")
    assert set(data["views"]) == chosen
    assert data["compare"] is not None
    assert "cnn3_b2.ncu-rep" in data["compare"]["base"]
    assert {k["status"] for k in data["compare"]["kernels"]} >= {"slower"}
    dialog.close()


def test_cancel_leaves_an_older_page_alone(qtbot, make_window, tmp_path: Path) -> None:
    window = make_window(H200_REPORT)
    page = tmp_path / "page.html"
    page.write_text("an older page")
    dialog = window.feature(ShareFeature).share_web_page(page)
    dialog.cancel.click()  # before the job has had a chance to write
    qtbot.waitUntil(lambda: dialog.job is None, timeout=120_000)
    if dialog.shared is None:
        assert page.read_text() == "an older page"
        assert "Cancelled" in dialog.status.text() or "not written" in dialog.status.text()
    else:  # it was done before the click: a whole page
        assert page.read_text().rstrip().endswith("</html>")
    assert not list(tmp_path.glob(".*.part"))
    dialog.close()
