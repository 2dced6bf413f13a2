"""The hot-lines panel: the top lines of the kernel or of the whole model for the metric."""

from __future__ import annotations

import os
from typing import Any, Protocol

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.ncu import HotLine
from kernelscope.core.view import Selection, ViewDocument, hot_lines

from ..code.delegates import BarDelegate
from ..widgets.columns import fit_column, rows_table
from ..widgets.formatting import format_number
from ..widgets.rows_model import Column, RowsModel
from ..workers.jobs import JobFn, Latest, Workers

Index = QModelIndex | QPersistentModelIndex


class LineChanges(Protocol):
    """What the panel asks of compare mode for "biggest regressions / improvements"."""

    @property
    def model(self) -> QAbstractItemModel:
        """The rows shown, once ranked."""
        ...

    def job(self, metric: str, kernel: str | None, worse: bool) -> JobFn | None:
        """The ranking of changed lines (None: nothing to compare)."""
        ...

    def show(self, table: QTableView, rows: list[Any], metric: str, worse: bool) -> str:
        """Put the ranked rows in ``table``; the caption for them."""
        ...

    def location(self, row: int) -> tuple[str, int | None]:
        """The kernel and line of the new build a row goes to."""
        ...


VALUE, LOCATION = 0, 3


def elide_location(text: str, metrics: QFontMetrics, width: int) -> str:
    """``file.cu:LINE`` in ``width`` pixels: the middle of the file name goes, the line stays."""
    name, colon, line = text.rpartition(":")
    if not colon or metrics.horizontalAdvance(text) <= width:
        return text
    suffix = colon + line
    room = width - metrics.horizontalAdvance(suffix)
    return metrics.elidedText(name, Qt.TextElideMode.ElideMiddle, max(0, room)) + suffix


class LocationDelegate(QStyledItemDelegate):
    """The Location column: a long kernel's file name loses its middle, never its line."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        style = option.widget.style() if option.widget is not None else QApplication.style()
        margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1)
        option.text = elide_location(option.text, option.fontMetrics, option.rect.width() - margin)


class HotLinesModel(RowsModel[HotLine]):
    """One row per hot line, hottest first; ``KeyRole`` gives the row's number."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                # the bar delegate paints Value and Share: no alignment of their own
                Column(
                    "Value",
                    lambda h: h.value,
                    lambda h: format_number(h.value),
                    bar=self._bar,
                    number=False,
                ),
                Column(
                    "Share",
                    lambda h: h.share,
                    lambda h: f"{100 * h.share:.1f}%",
                    bar=self._bar,
                    number=False,
                    tip="The line's share of the metric's total over the kernel (or the whole "
                    "model)",
                ),
                Column("Kernel", lambda h: h.kernel, lambda h: h.kernel, number=False),
                Column(
                    "Location",
                    lambda h: (h.file, h.line),
                    lambda h: f"{os.path.basename(h.file)}:{h.line}",
                    number=False,
                    tip="The line in the kernel's own file (inlined header code counts at its "
                    "call)",
                ),
                Column(
                    "Top stall",
                    lambda h: h.top_stall,
                    lambda h: h.top_stall,
                    number=False,
                    tip="The stall reason with most warp samples on the line",
                ),
                Column(
                    "Source",
                    lambda h: h.source or "",
                    lambda h: (h.source or "").strip(),
                    number=False,
                ),
            ],
            parent,
        )
        self.value_tip = ""  # what the ranked metric means (the Value column's tooltip)

    def hot_line(self, row: int) -> HotLine:
        return self.rows[row]

    def _bar(self, h: HotLine) -> float:
        top = self.rows[0].value if self.rows else 0.0
        return h.value / top if top > 0 else 0.0

    def key(self, row: HotLine, number: int) -> int:
        return number

    def header_tip(self, section: int) -> str | None:
        return (self.value_tip if section == VALUE else super().header_tip(section)) or None

    def tooltip(self, row: HotLine, column: int) -> str:
        return f"{row.file}:{row.line}"


class HotLinesPanel(QWidget):
    """Ranks lines on the document lane (a whole model's ranking loads every kernel); the
    rows on screen stay until the newest ranking is ready."""

    def __init__(self, selection: Selection, workers: Workers) -> None:
        super().__init__()
        self.setObjectName("hot_lines")
        self.selection = selection
        self.model = HotLinesModel(self)
        self._ranking = Latest(workers, "document", "ranking hot lines", self)
        self.scope = QComboBox()
        self.scope.addItems(["This kernel", "Whole model"])
        self.scope.setToolTip("Rank the lines of the selected kernel, or of every kernel")
        self.ranking = QComboBox()  # compare mode: the lines that changed most, too
        self.ranking.addItems(["Hottest lines", "Biggest regressions", "Biggest improvements"])
        self.ranking.setToolTip("Hottest lines, or the lines whose metric grew or shrank most")
        self.ranking.hide()
        self._changes: LineChanges | None = None
        # one kernel's rankings (metric, kernel) -> rows, for the document they were made of
        self._ranked: dict[tuple[str, str], list[Any]] = {}
        self._ranked_of: ViewDocument | None = None
        self._asked: tuple[ViewDocument, str, str] | None = None  # the ranking on its way
        self.caption = QLabel()
        self.table = rows_table(self.model)
        self._bars = BarDelegate(self.table)
        self.table.setItemDelegateForColumn(0, self._bars)
        self.table.setItemDelegateForColumn(1, self._bars)
        self._location = LocationDelegate(self.table)
        self.table.setItemDelegateForColumn(LOCATION, self._location)
        self.table.setToolTip("Click (or Enter) to go to the line")
        top = QHBoxLayout()
        top.addWidget(self.scope)
        top.addWidget(self.ranking)
        top.addWidget(self.caption, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self.scope.currentIndexChanged.connect(self.refresh)
        self.ranking.currentIndexChanged.connect(self.refresh)
        # a click goes to the line, as a click in every other list chooses its row
        self.table.clicked.connect(self._go)
        self.table.activated.connect(self._go)
        self._ranking.result.connect(self._on_ranked)
        self._ranking.failed.connect(self._on_failed)
        selection.document_changed.connect(self.refresh)
        selection.kernel_changed.connect(self._on_kernel)
        selection.metric_changed.connect(self.refresh)

    @property
    def busy(self) -> bool:
        return self._ranking.busy

    def rank_by(self, ranking: int) -> None:
        """Compare mode's choice of ranking: 0 the hottest lines, 1 the biggest regressions,
        2 the biggest improvements."""
        self.ranking.setCurrentIndex(ranking)

    def set_changes(self, changes: LineChanges | None) -> None:
        """Compare mode: offer the biggest regressions and improvements (None: leave it)."""
        self._changes = changes
        self.ranking.setVisible(changes is not None)
        self.ranking.blockSignals(True)
        if changes is None:
            self.ranking.setCurrentIndex(0)
        self.ranking.blockSignals(False)
        self.refresh()

    def _on_kernel(self) -> None:
        if self.scope.currentIndex() == 0:
            self.refresh()

    def refresh(self) -> None:
        document, kernel = self.selection.document, self.selection.kernel
        whole = self.scope.currentIndex() == 1
        if document is None or (kernel is None and not whole):
            self._ranking.cancel()
            self.model.set_rows([])
            self.caption.setText("")
            return
        metric = self.selection.metric
        name = None if whole else kernel.name if kernel else None
        ranking = self.ranking.currentIndex()
        changes = self._changes.job(metric, name, ranking == 1) if self._changes else None
        if ranking > 0 and changes is not None:
            self.caption.setText(f"Comparing lines by {metric}…")
            self._ranking.submit(changes, (metric, ranking == 1))
            return
        kept = self._ranked.get((metric, name)) if name and document is self._ranked_of else None
        if kept is not None:
            self._ranking.cancel()
            self._asked = None
            self._on_ranked(kept, metric)
            return
        self.caption.setText(f"Ranking lines by {metric}…")
        self._asked = (document, metric, name) if name else None
        session = self.selection.open_session()
        self._ranking.submit(lambda context: hot_lines(session, metric, name), metric)

    def keep(self, document: ViewDocument, metric: str, kernel: str, rows: list[Any]) -> None:
        """One kernel's ranking (by ``refresh`` or read ahead, ``warm_ahead``), shown from
        here when it is asked for again."""
        if document is not self._ranked_of:
            self._ranked, self._ranked_of = {}, document
        self._ranked[(metric, kernel)] = rows

    def _on_ranked(self, rows: list[Any], metric: str | tuple[str, bool]) -> None:
        if isinstance(metric, tuple):  # compare mode's regressions or improvements
            if self._changes is not None:
                self.caption.setText(self._changes.show(self.table, rows, *metric))
            return
        if self._asked is not None:
            self.keep(*self._asked, rows)
            self._asked = None
        document = self.selection.document
        tip = document.metric_description(metric) if document is not None else ""
        self.model.value_tip = tip
        if self.table.model() is not self.model:
            self.table.setModel(self.model)
            plain = self.table.itemDelegate()
            for column in range(self.model.columnCount()):
                delegate = self._bars if column < 2 else plain
                if column == LOCATION:
                    delegate = self._location
                self.table.setItemDelegateForColumn(column, delegate)
        self.model.set_rows(rows)
        self.caption.setText(f"Top {len(rows)} lines by {metric}")
        self.caption.setToolTip(tip)
        chars = self.fontMetrics().horizontalAdvance("0")
        for column, width in enumerate([10, 8, 30, 26, 18]):  # a reset forgets the widths
            if column < 2:  # the numbers, whole
                fit_column(self.table, column, width)
            else:
                self.table.setColumnWidth(column, chars * width)

    def _on_failed(self, error: BaseException, metric: str) -> None:
        self.model.set_rows([])
        self.caption.setText(f"Cannot rank lines: {str(error).splitlines()[0]}")

    def _go(self, index: QModelIndex) -> None:
        if self._changes is not None and index.model() is self._changes.model:
            kernel, line = self._changes.location(index.row())
            shown = self.selection.kernel
            own = shown.main_file if shown is not None and shown.name == kernel else None
            self.selection.show(kernel, file=own, line=line)
            return
        h = self.model.hot_line(index.row())
        self.selection.show(h.kernel, file=h.file, line=h.line)
