"""TVM against torch.compile: the per-operator-group table of ``core.inductor.versus_tvm``
(Compare With… between a TVM workspace and a torch.compile run folder)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from kernelscope.core.inductor import Versus


class VersusDialog(QDialog):
    """Both compilers' kernel time per operator group, the faster one, the kernel to look at
    first on each side, and what differs in how they fuse."""

    def __init__(
        self,
        versus: Versus,
        header: list[str],
        cells: list[list[str]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("TVM against torch.compile")
        layout = QVBoxLayout(self)
        title = QLabel(
            f"TVM <b>{versus.tvm_workspace.path.name}</b> ({versus.tvm_report}) against "
            f"Inductor <b>{versus.run.path.name}</b> ({versus.inductor_report}): kernel time of "
            "one forward pass per operator group"
        )
        title.setWordWrap(True)
        layout.addWidget(title)
        columns = [*header, "TVM's slowest kernel", "Inductor's slowest kernel"]
        self.table = QTableWidget(len(cells), len(columns), self)
        self.table.setHorizontalHeaderLabels(columns)
        self.table.verticalHeader().setVisible(False)
        slowest = {
            r.group: (r.tvm.slowest() or "", r.inductor.slowest() or "") for r in versus.rows
        }
        for i, row in enumerate(cells):
            for j, text in enumerate([*row, *slowest.get(row[0], ("", ""))]):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                if 1 <= j <= 4:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(i, j, item)
        self.table.resizeColumnsToContents()
        layout.addWidget(self.table)
        notes = QLabel("<br>".join(f"• {n}" for n in versus.notes))
        notes.setWordWrap(True)
        layout.addWidget(notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(1100, 420)
