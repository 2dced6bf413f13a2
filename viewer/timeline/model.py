"""The Timeline pane's tables: every call of the pass in time order, and the time share of
each kernel and of each Relax operator type (``Timeline.kernel_shares``/``op_shares``)."""

from __future__ import annotations

from PySide6.QtCore import QObject

from kernelscope.core.timeline import (
    Agreement,
    CallAgreement,
    Share,
    Timeline,
    TimelineCall,
    TimelineSummary,
)

from ..widgets.formatting import format_number, format_signed
from ..widgets.rows_model import Column, RowsModel


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


class CallsModel(RowsModel[TimelineCall]):
    """One row per call: index, start, duration (with its share of the pass), ncu's duration
    of the same launches and the difference (when a report of the workspace has the pass),
    kernel, operators."""

    NCU_COLUMNS = (3, 4)  # after "Time µs"; hidden while no report has the pass

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column("#", lambda c: c.index, lambda c: str(c.index), given_order=True),
                Column("Start µs", lambda c: c.start_us, lambda c: format_number(c.start_us)),
                Column(
                    "Time µs",
                    lambda c: c.duration_us,
                    lambda c: format_number(c.duration_us),
                    bar=lambda c: c.duration_us / self.peak if self.peak else 0.0,
                ),
                Column(
                    "ncu µs",
                    lambda c: self._ncu(c).ncu_us or 0.0,
                    lambda c: format_number(self._ncu(c).ncu_us),
                ),
                Column(
                    "Δ µs",
                    lambda c: self._ncu(c).diff_us or 0.0,
                    lambda c: format_signed(self._ncu(c).diff_us),
                ),
                Column("Share", lambda c: c.duration_us, lambda c: _pct(self._share(c))),
                Column("Kernel", lambda c: c.name, lambda c: c.name, number=False),
                Column(
                    "Operators",
                    lambda c: c.ops or c.op_type,
                    lambda c: c.ops or c.op_type,
                    number=False,
                ),  # fmt: skip
            ],
            parent,
        )
        self.total = 0.0
        self.peak = 0.0
        self.ncu: dict[int, CallAgreement] = {}
        self._row_of: dict[int, int] | None = None  # a call's row, by its index

    def row_of(self, index: int) -> int | None:
        """The row showing call ``index`` (None: not shown)."""
        if self._row_of is None:
            self._row_of = {c.index: row for row, c in enumerate(self.rows)}
        return self._row_of.get(index)

    def rows_reordered(self) -> None:
        self._row_of = None

    def set_timeline(self, timeline: Timeline | None, summary: TimelineSummary | None) -> None:
        self.total = summary.kernel_time_us if summary else 0.0
        self.peak = summary.peak_us if summary else 0.0
        self.ncu = {}
        self.set_rows(timeline.calls if timeline else [])

    def set_agreement(self, agreement: Agreement | None) -> None:
        """ncu's figures of the shown calls (``core.timeline.ncu_agreement``)."""
        self.ncu = {c.index: c for c in agreement.calls} if agreement else {}
        first, last = self.NCU_COLUMNS
        if self.rows:
            self.dataChanged.emit(self.index(0, first), self.index(len(self.rows) - 1, last))

    def _ncu(self, call: TimelineCall) -> CallAgreement:
        return self.ncu.get(call.index) or CallAgreement(call.index, call.duration_us)

    def _share(self, call: TimelineCall) -> float:
        return call.duration_us / self.total if self.total else 0.0


class SharesModel(RowsModel[Share]):
    """Time per kernel or per operator type: calls, total, share (a bar), mean."""

    def __init__(self, what: str, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column(what, lambda s: s.name, lambda s: s.name, number=False),
                Column("Calls", lambda s: s.calls, lambda s: format_number(s.calls)),
                Column("Total µs", lambda s: s.total_us, lambda s: format_number(s.total_us)),
                Column("Share", lambda s: s.share, lambda s: _pct(s.share), bar=lambda s: s.share),
                Column("Mean µs", lambda s: s.mean_us, lambda s: format_number(s.mean_us)),
            ],
            parent,
        )
