"""Column widths that fit the figures: a short table's column is never narrower than its widest
text, measured on every row (the kernel list, hot lines, the opcode table: tens of rows).

Delegates right-align numbers and draw them unclipped, so a number wider than its column runs
over the column on its left (9-digit instruction counts did). Code panes, thousands of rows,
compute their widest figure instead (``CodeModel.widest_text``). ``rows_table`` sets up such a
short table the way they all look: whole rows, read-only, no grid, no row numbers.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView


def rows_table(model: QAbstractItemModel) -> QTableView:
    """A read-only table of whole rows over ``model``: no row numbers, grid or wrapping, rows of
    one height, the last column stretched."""
    table = QTableView()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    table.horizontalHeader().setStretchLastSection(True)
    table.setShowGrid(False)
    table.setWordWrap(False)
    return table


def widest_text(table: QTableView, column: int) -> int:
    """Pixels the widest text of ``column`` takes, its header's (and sort arrow's) included."""
    model, metrics = table.model(), table.fontMetrics()
    texts = [model.index(row, column).data() for row in range(model.rowCount())]
    widest = max((metrics.horizontalAdvance(str(t)) for t in texts if t), default=0)
    title = model.headerData(column, Qt.Orientation.Horizontal)
    header = table.horizontalHeader().fontMetrics().horizontalAdvance(str(title or ""))
    return max(widest, header + metrics.horizontalAdvance("0"))


def fit_column(table: QTableView, column: int, chars: int, most: int | None = None) -> int:
    """Set ``column`` to ``chars`` characters or its widest text and a margin, whichever is
    wider, but at most ``most`` characters (long text is cut); returns the width."""
    char = table.fontMetrics().horizontalAdvance("0")
    width = max(char * chars, widest_text(table, column) + char * 2)
    if most is not None:
        width = min(width, char * most)
    table.setColumnWidth(column, width)
    return width
