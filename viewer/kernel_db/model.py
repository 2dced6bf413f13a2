"""Table model over the kernel DB's entry summaries, with what NNFusion makes of each row
(usable, ambiguous, kept and why) and the open profile's time beside each."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush

from ..widgets.formatting import format_number
from ..widgets.nnfusion_colours import colour
from ..widgets.rows_model import Column, RowsModel

if TYPE_CHECKING:  # the DB (sqlite-utils) is imported when it is first read
    from kernelscope.core.kernel_db import EntrySummary, RowVerdict

SCHEDULE, NNFUSION, WHY, STORED, PROFILE, IDENTIFIER = 2, 3, 4, 5, 6, 7
ALLOW_HINT = (
    "Export options: let NNFusion use ambiguous rows, then export the kernel again "
    "to make it usable anyway"
)


def _shown(value: str | float | None) -> str:
    if isinstance(value, float):
        return format_number(value)
    return "" if value is None else value


def _sorted(value: str | float | None) -> str | float:
    return value if value is not None else -1.0


class KernelDbModel(RowsModel["EntrySummary"]):
    def __init__(self, parent: QObject | None = None) -> None:
        def column(
            title: str, get: Callable[[EntrySummary], str | float | None], **kw: Any
        ) -> Column[EntrySummary]:
            return Column(title, lambda e: _sorted(get(e)), lambda e: _shown(get(e)), **kw)

        super().__init__(
            [
                column("Kernel", lambda e: e.kernel_name, number=False),
                column("Op type", lambda e: e.op_type, number=False),
                column(
                    "Schedule",
                    lambda e: e.schedule,
                    number=False,
                    tip="Where the kernel's schedule came from: TVM's default, or a tuning "
                    "database (how many candidates were measured)",
                ),
                column(
                    "NNFusion",
                    self._nnfusion,
                    number=False,
                    tip="Whether NNFusion's kernel selection takes the row",
                ),
                column(
                    "Why",
                    lambda e: self._state(e)[1],
                    number=False,
                    tip="Why NNFusion cannot use the row, or what to know when it does",
                ),
                column("Stored µs", lambda e: e.time_us),
                column(
                    "Profile µs",
                    lambda e: self._profile_us.get(e.kernel_name),
                    tip="Mean time of the same kernel in the profile open in the window",
                ),
                column("Identifier", lambda e: e.identifier, number=False),
            ],
            parent,
        )
        self._profile_us: dict[str, float] = {}  # kernel name -> mean µs in the open profile
        self._verdicts: dict[str, RowVerdict] = {}  # key -> what NNFusion makes of it

    def set_entries(self, rows: list[EntrySummary]) -> None:
        self.set_rows(rows)

    def set_verdicts(self, verdicts: dict[str, RowVerdict]) -> None:
        """What NNFusion makes of each row (read with the DB); rows without one show the
        exporter's usable flag."""
        self._verdicts = dict(verdicts)
        if self.rows:
            self.dataChanged.emit(self.index(0, NNFUSION), self.index(len(self.rows) - 1, WHY))

    def set_profile_times(self, times_us: dict[str, float]) -> None:
        self._profile_us = dict(times_us)
        if self.rows:
            self.dataChanged.emit(self.index(0, PROFILE), self.index(len(self.rows) - 1, PROFILE))

    def entry(self, row: int) -> EntrySummary:
        return self.rows[row]

    def state(self, row: int) -> tuple[str, str, bool]:
        """(state, why, ambiguous) of a row: see ``core.kernel_db.RowVerdict``."""
        return self._state(self.rows[row])

    def _state(self, e: EntrySummary) -> tuple[str, str, bool]:
        v = self._verdicts.get(e.key)
        if v is not None:
            return v.state, v.why, v.ambiguous
        return ("usable", "", False) if e.usable else ("kept", "; ".join(e.reasons), False)

    def _nnfusion(self, e: EntrySummary) -> str:
        state, why, ambiguous = self._state(e)
        if state == "usable":
            return "yes"
        if state == "ambiguous":
            return "yes, ambiguous"
        if state == "kept":
            from kernelscope.core.kernel_db import is_held_back  # loaded with the DB

            if is_held_back(why.split("; ")):
                return "no, held back"
        return "no, ambiguous" if ambiguous else "no"

    def key(self, row: EntrySummary, number: int) -> str:
        return row.key

    def tooltip(self, row: EntrySummary, column: int) -> str | None:
        if column in (NNFUSION, WHY):
            state, why, ambiguous = self._state(row)
            if state == "usable":
                return why or "NNFusion takes this row"
            if state == "ambiguous":
                return f"Usable, but NNFusion may run it for another computation: {why}"
            text = f"Not usable by NNFusion: {why}"
            return f"{text}\n{ALLOW_HINT}" if ambiguous else text
        if column == STORED and row.device_name:
            return f"measured on {row.device_name}"
        if column == SCHEDULE:
            from kernelscope.core.kernel_db import describe_tuning  # loaded with the DB

            return describe_tuning(row.tuning) or "not recorded (exported by an older kernelscope)"
        if column in (0, IDENTIFIER):
            return self.columns[column].text(row)
        return None

    def role_data(self, row: EntrySummary, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and column == NNFUSION:
            state = self._state(row)[0]
            return None if state == "usable" else QBrush(colour(state))
        return None
