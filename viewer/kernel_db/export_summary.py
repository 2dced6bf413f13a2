"""After an export to the kernel DB: what was added, updated or left unchanged, and why
NNFusion cannot use some rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox, QWidget

if TYPE_CHECKING:
    from kernelscope.core.kernel_db import ExportReport


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
    written = report.nnfusion_model
    if written is not None:
        box.setInformativeText(
            box.informativeText()
            + f"\n\nWrote {written.path.name} for NNFusion ("
            + "; ".join(["weights as initializers", *written.changes()])
            + "): the Kernel DB panel's Coverage shows what NNFusion looks up for it."
        )
    box.setDetailedText(report.summary())
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    return box
