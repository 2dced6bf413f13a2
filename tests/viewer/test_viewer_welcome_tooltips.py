"""Every metric the window shows says what it means: the kernel list's and the code panes'
column headers, the hot-lines panel and the metric box. NVIDIA's text where the report has
it (the launch-level metrics), kernelscope's for the Source-page metrics it has none for."""

from __future__ import annotations

from ncu_support import MLP
from PySide6.QtCore import Qt
from viewer_support import settle

from kernelscope.core.ncu import KERNEL_METRICS, metric_description
from kernelscope.core.ncu.metrics import STALL_REASONS, stall_key
from kernelscope.core.view import SASS_COUNT, open_document
from kernelscope.core.view.from_profile import LINE_COLUMNS

REPORT = MLP / "mlp.ncu-rep"
# NVIDIA's description of sm__throughput... as ncu 2025.3 wrote it into the report
NVIDIA_SM = "SM throughput assuming ideal load balancing across SMSPs"
TIP = Qt.ItemDataRole.ToolTipRole
H = Qt.Orientation.Horizontal


def _header_tips(model) -> dict[str, str | None]:
    return {
        model.headerData(c, H, Qt.ItemDataRole.DisplayRole): model.headerData(c, H, TIP)
        for c in range(model.columnCount())
    }


def test_every_metric_the_panes_show_has_a_description() -> None:
    shown = [
        *KERNEL_METRICS,
        *LINE_COLUMNS,
        *(stall_key(r, n) for r in STALL_REASONS for n in (False, True)),
    ]
    missing = [name for name in shown if not metric_description(name)]
    assert not missing, f"no description for {missing}"
    # a label finds the same text as its metric name, and the tooltip names the metric
    text = metric_description("stall_long_sb")
    assert text.startswith(metric_description(stall_key("long_scoreboard")))
    assert "memory" in text and text.endswith("smsp__pcsamp_warps_issue_stalled_long_scoreboard")
    assert metric_description("no such metric") == ""


def test_a_report_gives_nvidias_descriptions_and_a_csv_kernelscopes(tmp_path) -> None:
    report = open_document(REPORT, read_in_child=True).document  # as the window opens it
    assert NVIDIA_SM in report.metric_description("SM %")
    assert "sm__throughput.avg.pct_of_peak_sustained_elapsed" in report.metric_description("SM %")
    csv = open_document([MLP / "details.csv", MLP / "source_cuda_sass.csv"]).document
    assert NVIDIA_SM not in csv.metric_description("SM %")
    assert "sm__throughput" in csv.metric_description("SM %"), "the metric is named all the same"
    assert "line table" in csv.metric_description(SASS_COUNT)


def test_the_window_shows_each_metrics_description_as_its_tooltip(qtbot, make_window) -> None:
    window = make_window(REPORT)
    document = window.selection.document
    kernels = _header_tips(window.kernels.model)
    assert NVIDIA_SM in kernels["SM %"]
    assert kernels["Registers"], "the build's columns say what they are too"
    source = _header_tips(window.source.model)
    sass = _header_tips(window.sass.model)
    metrics = [n for n in source if n in document.line_metric_names]
    assert len(metrics) >= 2 and SASS_COUNT in metrics
    for name in metrics:
        assert source[name] == document.metric_description(name) != ""
        assert sass.get(name, source[name]) == source[name]
    assert set(metrics) - set(sass) == {SASS_COUNT}, "an instruction has no instruction count"
    assert "PC sampler" in source["# Samples"]
    assert source["Source"] is None, "the code column is not a metric"
    # the hot-lines panel ranks by the chosen metric: its Value column says what it is
    window.metric_box.setCurrentText("Instructions Executed")
    settle(qtbot, window)
    hot = _header_tips(window.hot.model)
    assert hot["Value"] == document.metric_description("Instructions Executed")
    assert "Warp instructions executed" in window.hot.caption.toolTip()
    box = window.metric_box
    tips = [box.itemData(i, TIP) for i in range(box.count())]
    assert tips == [document.metric_description(box.itemText(i)) for i in range(box.count())]
    assert all(tips)
