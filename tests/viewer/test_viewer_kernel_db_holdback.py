"""The Kernel DB panel lists a held-back row (slower than NNFusion's own kernel for its
operator on the GPU both were timed on) as such, with both times as the reason."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from paths_support import H200_REPORT
from PySide6.QtCore import Qt
from viewer_support import settle

from kernelscope.core.kernel_db import export_workspace, profile_facts
from kernelscope.core.kernel_db.holdback import OperatorTimes
from kernelscope.core.ncu import Profile
from kernelscope.core.workspace import Workspace
from kernelscope.viewer.kernel_db import KernelDbFeature
from kernelscope.viewer.kernel_db.model import NNFUSION, WHY


def test_a_held_back_row_says_so_in_the_panel(
    qtbot, make_window, build_once: Callable[..., Workspace], tmp_path: Path
) -> None:
    ws = build_once("small_cnn.onnx")
    facts = profile_facts(Profile.open(H200_REPORT, workspace=ws))
    plain = export_workspace(ws, tmp_path / "plain.db", times=facts.times)
    conv = next(c for c in plain.primary if c.kernel_name.startswith("fused_conv2d"))
    times = OperatorTimes("NVIDIA H200", {conv.identifier: 3.0}, {})
    db = tmp_path / "held.db"
    export_workspace(ws, db, times=facts.times, hold_back=times)
    window = make_window(ws.path)
    panel = window.feature(KernelDbFeature).panel
    with qtbot.waitSignal(panel.listed, timeout=30_000):
        panel.set_path(db)
    m = panel.model
    rows = {
        m.entry(r).kernel_name: (m.data(m.index(r, NNFUSION)), m.data(m.index(r, WHY)),
                                 m.data(m.index(r, NNFUSION), Qt.ItemDataRole.ToolTipRole))
        for r in range(m.rowCount())
    }  # fmt: skip
    verdict, why, tip = rows[conv.kernel_name]
    assert verdict == "no, held back"
    assert why.startswith("held back: 6.14 µs (profile) against 3.00 µs of NNFusion's own")
    assert "NVIDIA H200" in tip
    assert rows["max_pool2d_kernel"][0] == "yes"
    settle(qtbot, window)
