"""Export to kernel DB: ``core.kernel_db`` in a QThread, and the summary dialog after it.

The thread opens the workspace itself (a ``Workspace`` is cheap to open and then belongs to
that thread alone) and gets the kernel times and line summaries as plain mappings, read from
the profile on the GUI thread before it starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from kernelscope.core.kernel_db import ExportReport, export_workspace


class ExportThread(QThread):
    progress = Signal(float, str)  # fraction (-1 when unknown), message
    exported = Signal(object)  # ExportReport
    failed = Signal(object)  # the exception

    def __init__(
        self,
        workspace: str,
        db_path: str,
        kernels: Sequence[str] | None,
        times: Mapping[str, tuple[str, float]],
        ncu_version: str | None,
        metrics: Mapping[str, dict[str, Any]] | None = None,
    ) -> None:
        super().__init__()
        self.workspace = workspace
        self.db_path = db_path
        self.kernels = list(kernels) if kernels else None
        self.times = dict(times)
        self.ncu_version = ncu_version
        self.metrics = dict(metrics or {})

    def run(self) -> None:
        try:
            report = export_workspace(
                self.workspace,
                self.db_path,
                self.kernels,
                self.times,
                ncu_version=self.ncu_version,
                timeout=5.0,
                progress=self._report,
                metrics=self.metrics,
            )
        except Exception as exc:  # any failure, bug or not, must reach the error dialog
            self.failed.emit(exc)
        else:
            self.exported.emit(report)

    def _report(self, step: str, fraction: float | None, message: str) -> None:
        text = f"Preparing {message}" if step == "prepare" else f"Writing {message}"
        self.progress.emit(-1.0 if fraction is None else fraction, text)


def summary_box(parent: QWidget, report: ExportReport) -> QMessageBox:
    """What was added, updated or left unchanged, and which rows NNFusion cannot use, why."""
    rows = report.primary
    flagged = [c for c in rows if not c.usable]
    counts = {s: sum(c.status == s for c in rows) for s in ("added", "updated", "unchanged")}
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle("Exported to kernel DB")
    box.setText(
        f"{len(rows)} kernel{'s' * (len(rows) != 1)} exported to {report.db_path.name}: "
        f"{counts['added']} added, {counts['updated']} updated, "
        f"{counts['unchanged']} unchanged."
    )
    if flagged:
        reasons = sorted({r for c in flagged for r in c.reasons})
        box.setInformativeText(
            f"{len(flagged)} stored for browsing only, not usable by NNFusion: "
            + "; ".join(reasons[:4])
            + ("; …" if len(reasons) > 4 else "")
        )
    else:
        box.setInformativeText("All of them are usable by NNFusion.")
    box.setDetailedText(report.summary())
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    return box
